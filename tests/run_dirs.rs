//! Run directories that never lose work: resuming a run stopped at any point, edits made
//! since, directories of other files, a run in use, options given anew, the words of a
//! resumed run, and pruning with `myhill runs`.

mod common;

use common::{Case, KEPT_RUN, stderr};

/// The result as text without its last newline (the reducer may drop it).
fn trimmed(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).trim_end().to_string()
}
use std::path::Path;
use std::process::{Child, Stdio};
use std::time::{Duration, Instant};

/// 200 lines `line N`; interesting while `line 37` survives. Each test touches `started`,
/// then waits while `hold` exists (to stop a run in its first check).
fn gated_case() -> Case {
    let case = Case::new();
    let input: String = (1..=200).map(|i| format!("line {i}\n")).collect();
    case.file("in.txt", input.as_bytes());
    let (started, hold) = (case.path("started"), case.path("hold"));
    case.script(
        "t.sh",
        &format!(
            "touch {}\nwhile [ -e {} ]; do sleep 0.02; done\ngrep -q '^line 37$' \"$1\"",
            started.display(),
            hold.display()
        ),
    );
    case
}

fn wait_exit(child: &mut Child, seconds: u64) -> Option<std::process::ExitStatus> {
    let deadline = Instant::now() + Duration::from_secs(seconds);
    while Instant::now() < deadline {
        if let Some(status) = child.try_wait().unwrap() {
            return Some(status);
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    None
}

/// Starts `args` with the test held in its first check, waits until the first test started,
/// and stops myhill with `signal`; then lets tests go on.
fn stop_in_first_check(case: &Case, args: &[&str], signal: i32) {
    case.file("hold", b"");
    let mut child = case.command(args).stderr(Stdio::null()).spawn().unwrap();
    assert!(common::wait_for(&case.path("started"), 30));
    common::signal(&child, signal);
    let status = wait_exit(&mut child, 30);
    std::fs::remove_file(case.path("hold")).unwrap();
    if status.is_none() {
        let _ = child.kill();
        let _ = child.wait();
        panic!("myhill did not stop");
    }
}

#[test]
fn a_run_stopped_in_its_first_check_resumes_to_its_output() {
    for (signal, output) in [
        (libc::SIGINT, None),
        (libc::SIGKILL, None),
        (libc::SIGINT, Some("out.txt")),
        (libc::SIGKILL, Some("out.txt")),
    ] {
        let case = gated_case();
        let mut args = vec!["reduce", "-j2", "--run-dir", "run"];
        if let Some(o) = output {
            args.extend(["-o", o]);
        }
        args.extend(["./t.sh", "in.txt"]);
        stop_in_first_check(&case, &args, signal);
        let meta = std::fs::read_to_string(case.path("run/meta.json")).unwrap();
        assert!(!meta.contains("\"output\": \"\""), "{meta}");
        let out = case.run(&["reduce", "--resume", "run"]);
        assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
        let target = output.unwrap_or("in.txt");
        assert_eq!(
            trimmed(&case.read(target)),
            "line 37",
            "{signal} {output:?}"
        );
        if output.is_none() {
            // The original was kept before the input was written.
            let orig = case.read("in.txt.orig");
            assert_eq!(
                orig.len(),
                (1..=200)
                    .map(|i| format!("line {i}\n").len())
                    .sum::<usize>()
            );
        } else {
            assert_eq!(case.read("in.txt").len(), case.read("run/original").len());
        }
    }
}

#[test]
fn resume_never_overwrites_edits_made_since() {
    // In place: the reduced input, edited by hand, is left alone.
    let case = gated_case();
    let out = case.run(&["reduce", "-j2", "--run-dir", "run", "./t.sh", "in.txt"]);
    assert!(out.status.success(), "{}", stderr(&out));
    case.file("in.txt", b"line 37\nmy own line\n");
    let out = case.run(&["reduce", "--resume", "run"]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(stderr(&out).contains("changed since"), "{}", stderr(&out));
    assert!(stderr(&out).contains("run/best"), "{}", stderr(&out));
    assert_eq!(trimmed(&case.read("in.txt")), "line 37\nmy own line");
    // Nor is the edit ignored silently when the result would go elsewhere.
    let out = case.run(&["reduce", "--resume", "run", "-o", "other.txt"]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(!case.path("other.txt").exists());
    assert_eq!(trimmed(&case.read("in.txt")), "line 37\nmy own line");

    // With -o: an edited INPUT is not silently ignored, nor an edited output overwritten.
    let case = gated_case();
    let out = case.run(KEPT_RUN);
    assert!(out.status.success(), "{}", stderr(&out));
    let original = case.read("in.txt");
    case.file("in.txt", b"line 37\nedited input\n");
    let out = case.run(&["reduce", "--resume", "run"]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(stderr(&out).contains("in.txt changed"), "{}", stderr(&out));
    std::fs::write(case.path("in.txt"), &original).unwrap();
    case.file("out.txt", b"line 37\nedited output\n");
    let out = case.run(&["reduce", "--resume", "run"]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert_eq!(case.read("out.txt"), b"line 37\nedited output\n");
}

#[test]
fn run_dir_refuses_a_directory_of_other_files() {
    let case = gated_case();
    std::fs::create_dir(case.path("project")).unwrap();
    for name in ["original", "best", "verdicts"] {
        case.file(&format!("project/{name}"), b"mine\n");
    }
    let out = case.run(&["reduce", "--run-dir", "project", "./t.sh", "in.txt"]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("not a run directory"),
        "{}",
        stderr(&out)
    );
    for name in ["original", "best", "verdicts"] {
        assert_eq!(case.read(&format!("project/{name}")), b"mine\n", "{name}");
    }
    assert_eq!(std::fs::read_dir(case.path("project")).unwrap().count(), 3);
    // `.` in a project is refused the same way, before any test.
    let out = case.run(&["reduce", "--run-dir", ".", "./t.sh", "in.txt"]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(!case.path("started").exists());
    // An empty directory is fine, and becomes a run directory.
    std::fs::create_dir(case.path("empty")).unwrap();
    let out = case.run(&["reduce", "-j2", "--run-dir", "empty", "./t.sh", "in.txt"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(case.path("empty").join(myhill::runs::MARKER).is_file());
    // No half-made directory is left beside it.
    assert!(
        !case.entries().iter().any(|n| n.starts_with(".myhill")),
        "{:?}",
        case.entries()
    );
}

#[test]
fn a_run_in_use_cannot_be_resumed_twice() {
    let case = gated_case();
    case.file("hold", b"");
    let mut first = case
        .command(&["reduce", "-j2", "--run-dir", "run", "./t.sh", "in.txt"])
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    assert!(common::wait_for(&case.path("started"), 30));
    let mut second = case
        .command(&["reduce", "--resume", "run"])
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let status = wait_exit(&mut second, 20);
    std::fs::remove_file(case.path("hold")).unwrap();
    let status = status.unwrap_or_else(|| second.wait().unwrap());
    let mut message = String::new();
    std::io::Read::read_to_string(second.stderr.as_mut().unwrap(), &mut message).unwrap();
    assert_eq!(status.code(), Some(2), "{message}");
    assert!(message.contains("in use"), "{message}");
    assert!(first.wait().unwrap().success());
    assert_eq!(trimmed(&case.read("in.txt")), "line 37");
    // Once the first has ended, the run can be resumed.
    let out = case.run(&["reduce", "--resume", "run"]);
    assert!(out.status.success(), "{}", stderr(&out));
}

#[test]
fn options_given_on_resume_replace_the_stored_ones() {
    let case = gated_case();
    let out = case.run(&[
        "reduce",
        "-j2",
        "--run-dir",
        "run",
        "--max-tests",
        "6",
        "-o",
        "out.txt",
        "./t.sh",
        "in.txt",
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_ne!(trimmed(&case.read("out.txt")), "line 37");
    // The same budget again: nothing left, and the words say how to go on.
    let out = case.run(&["reduce", "--resume", "run"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(stderr(&out).contains("larger budget"), "{}", stderr(&out));
    // A new -o, relative to where the resume is run, and a new budget.
    std::fs::create_dir(case.path("elsewhere")).unwrap();
    let out = case
        .command(&[
            "reduce",
            "--resume",
            "../run",
            "-o",
            "other.txt",
            "--max-tests",
            "100000",
        ])
        .current_dir(case.path("elsewhere"))
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(trimmed(&case.read("elsewhere/other.txt")), "line 37");
    assert!(!case.path("other.txt").exists());
}

#[test]
fn a_resumed_finished_run_says_what_it_replayed_in_true_words() {
    let case = gated_case();
    let out = case.run(&["reduce", "-j2", "--run-dir", "run", "./t.sh", "in.txt"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let first = stderr(&out);
    let improvements = first
        .lines()
        .filter(|l| l.starts_with("myhill: [") && l.contains(" -> "))
        .count();
    assert!(improvements > 1, "{first}");
    let out = case.run(&["reduce", "--resume", "run"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let again = stderr(&out);
    // The earlier improvements are not shown as new ones.
    assert_eq!(
        again.lines().filter(|l| l.starts_with("myhill: [")).count(),
        0,
        "{again}"
    );
    assert!(again.contains("replayed"), "{again}");
    // No "N of the M tests" where N exceeds M.
    assert!(!again.contains(" of the "), "{again}");
}

fn age(dir: &Path, days: u64) {
    let when = std::time::SystemTime::now() - Duration::from_secs(days * 86_400);
    for name in ["meta.json", ""] {
        let p = dir.join(name);
        let f = std::fs::File::options()
            .write(true)
            .open(&p)
            .or_else(|_| std::fs::File::open(&p));
        f.unwrap().set_modified(when).unwrap();
    }
}

#[test]
fn old_run_directories_are_pruned_and_can_be_listed_and_removed() {
    let case = gated_case();
    // 21 runs of two days ago, 5 of a month ago, and a directory of someone else's.
    let out = case.run(&["reduce", "-j2", "./t.sh", "in.txt"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let model = case.run_dirs().pop().unwrap();
    let root = model.parent().unwrap().to_path_buf();
    let copy = |name: &str, days: u64| {
        let dir = root.join(name);
        std::fs::create_dir(&dir).unwrap();
        for f in ["meta.json", "original", "best", myhill::runs::MARKER] {
            std::fs::copy(model.join(f), dir.join(f)).unwrap();
        }
        age(&dir, days);
    };
    for k in 0..21 {
        copy(&format!("20250301-0000{k:02}-recent"), 2);
    }
    for k in 0..5 {
        copy(&format!("20250101-0000{k:02}-old"), 30 + k);
    }
    std::fs::create_dir(root.join("notes-of-mine")).unwrap();
    std::fs::remove_dir_all(&model).unwrap();
    assert_eq!(case.run_dirs().len(), 27);

    case.file(
        "in.txt",
        (1..=50)
            .map(|i| format!("line {i}\n"))
            .collect::<String>()
            .as_bytes(),
    );
    let out = case.run(&["reduce", "-j2", "./t.sh", "in.txt"]);
    assert!(out.status.success(), "{}", stderr(&out));
    // The newest 20 are kept, and any younger than 14 days: only the old ones go.
    assert!(
        stderr(&out).contains("removed 5 run directories"),
        "{}",
        stderr(&out)
    );
    let left = case.run_dirs();
    assert_eq!(left.len(), 23, "{left:?}");
    assert!(root.join("20250301-000020-recent").is_dir());
    assert!(root.join("notes-of-mine").is_dir());
    assert!(!left.iter().any(|d| d.to_string_lossy().ends_with("-old")));

    let out = case.run(&["runs", "list"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let listing = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(listing.contains("20250301-000000-recent"), "{listing}");
    assert!(listing.contains("finished"), "{listing}");
    let out = case.run(&["runs", "remove", "20250301-000000-recent"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(!root.join("20250301-000000-recent").exists());
    // A run in use is not removed.
    let held = root.join("20250301-000001-recent");
    let lock = std::fs::File::create(held.join("lock")).unwrap();
    // SAFETY: flock on a descriptor this test owns.
    assert_eq!(
        unsafe { libc::flock(std::os::fd::AsRawFd::as_raw_fd(&lock), libc::LOCK_EX) },
        0
    );
    let out = case.run(&["runs", "remove", "20250301-000001-recent"]);
    assert!(held.is_dir(), "{}", stderr(&out));
    drop(lock);
    let out = case.run(&["runs", "remove", "notes-of-mine"]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(root.join("notes-of-mine").is_dir());
    let out = case.run(&["runs", "remove", "--finished"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(case.run_dirs().len(), 1, "{:?}", case.run_dirs());
}

/// `myhill runs plot` draws a finished run: both axes, every pass that made a step in the
/// legend with its steps, and a log axis for a range over ten times.
#[test]
fn runs_plot_draws_the_size_curve_of_a_run_with_its_passes() {
    let case = Case::new();
    let input: String = (1..=200).map(|i| format!("line {i}\n")).collect();
    case.file("in.txt", input.as_bytes());
    case.script("t.sh", "grep -q '^line 37$' \"$1\"");
    let out = case.run(&["reduce", "--run-dir", "run", "./t.sh", "in.txt"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let out = case.run(&["runs", "plot", "run", "-o", "curve.svg"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let svg = String::from_utf8(case.read("curve.svg")).unwrap();
    assert!(svg.starts_with("<svg") && svg.trim_end().ends_with("</svg>"));
    assert!(svg.contains(">time</text>") && svg.contains(">tests run</text>"));
    assert!(svg.contains("log scale"), "{svg}");
    let steps = std::fs::read_to_string(case.path("run/steps.jsonl")).unwrap();
    let first: serde_json::Value = serde_json::from_str(steps.lines().next().unwrap()).unwrap();
    let pass = first["pass"].as_str().unwrap();
    assert!(first["t"].is_f64(), "{first}");
    assert!(
        svg.contains(&format!(">{pass}: ")),
        "{pass} not in the legend: {svg}"
    );
    std::fs::create_dir(case.path("plain")).unwrap();
    let out = case.run(&["runs", "plot", "plain", "-o", "x.svg"]);
    assert!(!out.status.success());
    assert!(
        stderr(&out).contains("not a run directory"),
        "{}",
        stderr(&out)
    );
}
