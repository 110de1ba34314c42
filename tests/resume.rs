//! Long runs: the run directory, resuming a killed run, backups that do not pile up,
//! `--also-interesting`, and tests run through a `--launcher`.

mod common;

use common::{Case, KEPT_RUN, line_count, stderr};
use std::path::Path;
use std::time::{Duration, Instant};

/// Interesting while lines 17 and 123 survive; each call is logged to `calls`.
fn lines_case() -> Case {
    let case = Case::new();
    let input: String = (1..=200).map(|i| format!("{i}\n")).collect();
    case.file("in.txt", input.as_bytes());
    let calls = case.path("calls");
    case.script(
        "t.sh",
        &format!(
            "echo x >> {}\nsleep 0.02\ngrep -q '^17$' \"$1\" && grep -q '^123$' \"$1\"",
            calls.display()
        ),
    );
    case
}

#[test]
fn a_killed_run_resumes_to_the_same_result_without_testing_again() {
    // The uninterrupted run, for reference.
    let full = lines_case();
    let out = full.run(&["reduce", "-j1", "--run-dir", "run", "./t.sh", "in.txt"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let expected = full.read("in.txt");
    let full_tests = line_count(&full.path("run/tests.jsonl"));
    assert_eq!(
        std::fs::read_to_string(full.path("run/best"))
            .unwrap()
            .as_bytes(),
        expected
    );

    // The same run, killed half way with SIGKILL.
    let case = lines_case();
    let mut child = case
        .command(&["reduce", "-j1", "--run-dir", "run", "./t.sh", "in.txt"])
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let deadline = Instant::now() + Duration::from_secs(60);
    while line_count(&case.path("calls")) < full_tests / 2 {
        assert!(Instant::now() < deadline, "the run never got half way");
        std::thread::sleep(Duration::from_millis(5));
    }
    child.kill().unwrap();
    child.wait().unwrap();
    std::thread::sleep(Duration::from_millis(100));
    let before = line_count(&case.path("run/tests.jsonl"));
    assert!(
        before < full_tests,
        "killed too late: {before} of {full_tests}"
    );
    let meta = std::fs::read_to_string(case.path("run/meta.json")).unwrap();
    assert!(meta.contains("\"status\": \"running\""), "{meta}");

    // Resumed with another job count: the same result, and at most the one test in flight
    // at the kill is run again.
    let out = case.run(&["reduce", "--resume", "run", "-j", "3"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("taken from the run directory instead of running the test again"),
        "{}",
        stderr(&out)
    );
    assert_eq!(case.read("in.txt"), expected);
    let calls_after = line_count(&case.path("calls"));
    assert!(calls_after > 0);
    let resumed_tests = line_count(&case.path("run/tests.jsonl")) - before;
    // -j 3 may speculate; at one job the count would be exact. What is never run again is
    // any candidate whose verdict the killed run kept.
    let log = std::fs::read_to_string(case.path("run/tests.jsonl")).unwrap();
    let hashes: Vec<&str> = log
        .lines()
        .filter_map(|l| l.split("\"hash\":\"").nth(1))
        .map(|h| &h[..32])
        .collect();
    let (old, new) = hashes.split_at(before);
    let rerun = new.iter().filter(|h| old.contains(h)).count();
    // The best is re-run between passes on purpose (that is a re-run, not a cache miss):
    // those are the only repeats allowed, as many as the uninterrupted run made.
    let full_log = std::fs::read_to_string(full.path("run/tests.jsonl")).unwrap();
    let full_repeats = {
        let h: Vec<&str> = full_log
            .lines()
            .filter_map(|l| l.split("\"hash\":\"").nth(1))
            .map(|h| &h[..32])
            .collect();
        h.iter()
            .enumerate()
            .filter(|(i, x)| h[..*i].contains(x))
            .count()
    };
    assert!(
        rerun <= full_repeats,
        "{rerun} candidates tested again after resuming ({resumed_tests} tests)"
    );
    // No second backup: the original was kept once, by the first run.
    assert_eq!(
        case.entries()
            .iter()
            .filter(|n| n.starts_with("in.txt.orig"))
            .count(),
        1
    );
    let meta = std::fs::read_to_string(case.path("run/meta.json")).unwrap();
    assert!(meta.contains("\"status\": \"finished\""), "{meta}");
}

#[test]
fn a_finished_run_resumed_runs_no_test() {
    let case = lines_case();
    let out = case.run(&["reduce", "-j2", "--run-dir", "run", "./t.sh", "in.txt"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let result = case.read("in.txt");
    let calls = line_count(&case.path("calls"));
    let out = case.run(&["reduce", "--resume", "run", "-j1"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(case.read("in.txt"), result);
    // Only the final confirmation's re-run may run: every other verdict is on disk.
    assert!(line_count(&case.path("calls")) <= calls + 1);
    // Every step on disk rebuilds the result from the original.
    let steps = myhill::runs::replay_steps(&case.path("run")).unwrap();
    assert_eq!(steps.last().unwrap(), &result);
}

#[test]
fn running_the_same_command_again_keeps_one_backup() {
    let case = lines_case();
    for _ in 0..3 {
        let out = case.run(&["reduce", "-j2", "./t.sh", "in.txt"]);
        assert!(out.status.success(), "{}", stderr(&out));
    }
    let backups: Vec<String> = case
        .entries()
        .into_iter()
        .filter(|n| n.starts_with("in.txt.orig"))
        .collect();
    assert_eq!(backups, ["in.txt.orig"]);
    // Each run has its directory in the state directory, printed at the start.
    assert_eq!(case.run_dirs().len(), 3);
    // A copy of the original with the same bytes is reused too.
    std::fs::copy(case.path("in.txt.orig"), case.path("in.txt")).unwrap();
    let out = case.run(&["reduce", "-j2", "--no-run-dir", "./t.sh", "in.txt"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("kept as in.txt.orig\n"),
        "{}",
        stderr(&out)
    );
    assert!(!case.path("in.txt.orig.1").exists());
}

#[test]
fn resume_refuses_a_changed_test_and_a_missing_directory() {
    let case = lines_case();
    let out = case.run(KEPT_RUN);
    assert!(out.status.success(), "{}", stderr(&out));
    case.script("t.sh", "grep -q '^17$' \"$1\"");
    let out = case.run(&["reduce", "--resume", "run"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("the test changed"),
        "{}",
        stderr(&out)
    );
    let out = case.run(&["reduce", "--resume", "nowhere"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("is not a run directory"),
        "{}",
        stderr(&out)
    );
    // A directory that holds a run is not reused for another.
    let out = case.run(&["reduce", "--run-dir", "run", "./t.sh", "in.txt"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("--resume"), "{}", stderr(&out));
}

#[test]
fn also_interesting_keeps_the_candidates_with_that_status() {
    let case = Case::new();
    // `e` in the first half and `b` in the second, so that any first cut by halves (lines,
    // chunks, the probe's bulk deletions) tests a candidate with `e` and without `b`.
    case.file("in.txt", b"a\ne\nc\nd\nb\nf\n");
    // Interesting while `b` is there; exit 3 when `b` is gone but `e` is there.
    case.script(
        "t.sh",
        "grep -q b \"$1\" && exit 0\ngrep -q e \"$1\" && exit 3\nexit 1",
    );
    let out = case.run(&[
        "reduce",
        "-j1",
        "--run-dir",
        "run",
        "--also-interesting",
        "3",
        "--allow-trivial",
        "./t.sh",
        "in.txt",
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let kept: Vec<_> = std::fs::read_dir(case.path("run/also-interesting"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    assert!(!kept.is_empty());
    for p in &kept {
        let bytes = std::fs::read(p).unwrap();
        assert!(bytes.contains(&b'e') && !bytes.contains(&b'b'), "{p:?}");
        assert!(p.to_string_lossy().ends_with("-in.txt"));
    }
    let out = case.run(&[
        "reduce",
        "--no-run-dir",
        "--also-interesting",
        "3",
        "./t.sh",
        "in.txt",
    ]);
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn a_launcher_runs_every_test_and_hears_of_every_cancel() {
    let case = lines_case();
    // A launcher that logs each start, runs the test as its child, and logs a SIGTERM.
    let log = case.path("launches");
    let terms = case.path("terms");
    let ends = case.path("ends");
    case.script(
        "launch.sh",
        &format!(
            "trap 'echo $$ >> {1}; kill $child; exit 143' TERM\necho $$ >> {0}\n\"$@\" &\nchild=$!\nwait $child\ncode=$?\necho $$ >> {2}\nexit $code",
            log.display(),
            terms.display(),
            ends.display(),
        ),
    );
    let out = case.run(&[
        "reduce",
        "-j4",
        "--launcher",
        &format!("{} ", case.path("launch.sh").display()),
        "--work-dir",
        "tmp",
        "-o",
        "out.txt",
        "./t.sh",
        "in.txt",
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let launches = line_count(&log);
    assert!(launches >= line_count(&case.path("calls")));
    assert!(launches > 10);
    // Every launch ended by itself or was told to stop with SIGTERM (which srun turns into
    // cancelling its job step): none was killed without a word.
    let pids = |p: &Path| -> std::collections::BTreeSet<String> {
        std::fs::read_to_string(p)
            .unwrap_or_default()
            .lines()
            .map(str::to_string)
            .collect()
    };
    let told: std::collections::BTreeSet<String> =
        pids(&ends).union(&pids(&terms)).cloned().collect();
    let silent: Vec<_> = pids(&log).difference(&told).cloned().collect();
    assert!(
        silent.is_empty(),
        "launchers killed without SIGTERM: {silent:?}"
    );
    // The result is the one a local run gives.
    let local = case.run(&["reduce", "-j1", "-o", "local.txt", "./t.sh", "in.txt"]);
    assert!(local.status.success());
    assert_eq!(case.read("out.txt"), case.read("local.txt"));
    // A missing launcher is named.
    let out = case.run(&[
        "reduce",
        "--launcher",
        "no-such-launcher --",
        "./t.sh",
        "in.txt",
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("no-such-launcher"),
        "{}",
        stderr(&out)
    );
}
