//! Kill -9 half way, then `--resume`: the same result, and only the tests in flight run again.
//!
//!     cargo build --release && cargo run --release --example resume -- [JOBS] [SLEEP_SECONDS]
//!
//! The input is seed-200 (200 lines, steps 37, 118 and 161 needed); the test sleeps (default
//! 0.1 s) and logs `start HASH` and `end HASH` for every candidate it sees. The program runs
//! the reduction once uninterrupted, then again killed with SIGKILL when half as many tests
//! have started, then `myhill reduce --resume` on the killed run's directory. It prints the
//! tests in flight at the kill (started, not ended), the candidates the resumed run tested
//! again that the killed run had already started, and how many a run repeats anyway (the
//! best is re-run between passes on purpose), and checks the results are the same.

use std::collections::HashSet;
use std::os::unix::fs::PermissionsExt;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// The (kind, hash) lines of the test's log.
fn log(path: &Path) -> Vec<(String, String)> {
    std::fs::read_to_string(path)
        .unwrap_or_default()
        .lines()
        .filter_map(|l| {
            let (k, h) = l.split_once(' ')?;
            Some((k.to_string(), h.to_string()))
        })
        .collect()
}

/// Starts of a candidate already started earlier in `lines`.
fn repeats(lines: &[(String, String)]) -> usize {
    let mut seen = HashSet::new();
    lines
        .iter()
        .filter(|(k, _)| k == "start")
        .filter(|(_, h)| !seen.insert(h.clone()))
        .count()
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let jobs = args.first().cloned().unwrap_or_else(|| "4".into());
    let sleep = args.get(1).cloned().unwrap_or_else(|| "0.1".into());
    let bin = std::env::var("MYHILL").unwrap_or_else(|_| "target/release/myhill".into());
    let dir = tempfile::tempdir_in(".").unwrap();
    let input: String = (0..200).map(|i| format!("step {i}\n")).collect();
    let script = dir.path().join("t.sh");
    let check = r#"LC_ALL=C awk 'BEGIN{w[0]="step 37";w[1]="step 118";w[2]="step 161";k=0} k<3&&$0==w[k]{k++} END{exit(k==3?0:1)}' "$1""#;
    std::fs::write(
        &script,
        format!(
            "#!/bin/bash\nh=$(md5sum < \"$1\" | cut -c1-32)\necho \"start $h\" >> \"$LOG\"\nsleep {sleep}\n{check}\ns=$?\necho \"end $h\" >> \"$LOG\"\nexit $s\n"
        ),
    )
    .unwrap();
    std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).unwrap();
    let run = |name: &str, extra: &[&str]| {
        let input_path = dir.path().join(format!("{name}.txt"));
        if !input_path.exists() {
            std::fs::write(&input_path, &input).unwrap();
        }
        let mut cmd = Command::new(&bin);
        cmd.env("LOG", dir.path().join(format!("{name}.log")))
            .env("XDG_STATE_HOME", dir.path().join("state"))
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null());
        if extra.first() == Some(&"--resume") {
            cmd.args(["reduce"]).args(extra).args(["-j", &jobs]);
        } else {
            cmd.args(["reduce", "-q", "-j", &jobs, "--run-dir"])
                .arg(dir.path().join(format!("{name}.run")))
                .arg(&script)
                .arg(&input_path);
        }
        cmd
    };
    // Uninterrupted.
    let started = Instant::now();
    let status = run("full", &[]).status().unwrap();
    assert!(status.success());
    let full_wall = started.elapsed().as_secs_f64();
    let full_log = log(&dir.path().join("full.log"));
    let full_starts = full_log.iter().filter(|(k, _)| k == "start").count();
    let expected = std::fs::read(dir.path().join("full.txt")).unwrap();

    // Killed half way.
    let mut child = run("part", &[]).spawn().unwrap();
    let part_log = dir.path().join("part.log");
    while log(&part_log).iter().filter(|(k, _)| k == "start").count() < full_starts / 2 {
        std::thread::sleep(Duration::from_millis(2));
    }
    child.kill().unwrap();
    child.wait().unwrap();
    let at_kill = log(&part_log);
    let started_before: HashSet<String> = at_kill
        .iter()
        .filter(|(k, _)| k == "start")
        .map(|(_, h)| h.clone())
        .collect();
    let ended_before: Vec<&String> = at_kill
        .iter()
        .filter(|(k, _)| k == "end")
        .map(|(_, h)| h)
        .collect();
    let in_flight = at_kill.iter().filter(|(k, _)| k == "start").count() - ended_before.len();
    // What was running is killed with myhill's own group? No: SIGKILL leaves the tests to
    // finish on their own; wait for them so their log lines land before the resume.
    std::thread::sleep(Duration::from_secs_f64(sleep.parse::<f64>().unwrap() + 0.5));
    let settled = log(&part_log).len();

    // Resumed.
    let run_dir = dir.path().join("part.run");
    let started = Instant::now();
    let status = run("part", &["--resume", run_dir.to_str().unwrap()])
        .status()
        .unwrap();
    assert!(status.success());
    let resume_wall = started.elapsed().as_secs_f64();
    let after = &log(&part_log)[settled..];
    let tested_after = after.iter().filter(|(k, _)| k == "start").count();
    let again: Vec<&String> = after
        .iter()
        .filter(|(k, h)| k == "start" && started_before.contains(h))
        .map(|(_, h)| h)
        .collect();
    let result = std::fs::read(dir.path().join("part.txt")).unwrap();
    println!("jobs {jobs}, test sleeps {sleep} s");
    println!(
        "uninterrupted: {full_starts} tests, {full_wall:.2} s, {} repeated candidates (re-runs of the best)",
        repeats(&full_log)
    );
    println!(
        "killed after {} tests started ({in_flight} in flight at the kill)",
        started_before.len()
    );
    println!(
        "resumed: {tested_after} tests run, {resume_wall:.2} s; {} of them on candidates started before the kill",
        again.len()
    );
    println!(
        "same result: {} ({} bytes)",
        result == expected,
        result.len()
    );
    assert_eq!(result, expected, "the resumed run ended elsewhere");
}
