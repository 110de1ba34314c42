//! Never leave anything behind and never mislead: processes a test started, launchers,
//! diagnoses and the words of errors.

mod common;

use common::{Case, processes_with, stderr};

/// A test that starts daemons in sessions of their own (out of its process group's reach)
/// leaves none running: each goes when its test ends, and one that cleared its environment
/// goes when myhill exits.
#[test]
fn daemons_started_by_the_test_do_not_outlive_the_run() {
    let case = Case::new();
    let input: String = (0..40).map(|i| format!("line {i}\n")).collect();
    case.file("in.txt", input.as_bytes());
    // A command line of its own, so only this test's daemons are counted.
    let daemon = case.path("lingering-daemon");
    std::os::unix::fs::symlink(which("sleep"), &daemon).unwrap();
    case.script(
        "t.sh",
        &format!(
            r#"setsid {d} 40 &
setsid sh -c '{d} 41 & {d} 42' &
env -i setsid {d} 43 &
grep -q "^line 17$" "$1""#,
            d = daemon.display()
        ),
    );
    let out = case.run(&[
        "reduce",
        "-j",
        "2",
        "--no-run-dir",
        "./t.sh",
        "in.txt",
        "-o",
        "out",
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(case.read("out").trim_ascii_end(), b"line 17");
    let marker = daemon.to_string_lossy();
    let left = processes_with(&marker);
    stop_processes_with(&marker);
    assert_eq!(left, 0, "daemons left running");
}

fn which(program: &str) -> std::path::PathBuf {
    let path = std::env::var_os("PATH").unwrap();
    std::env::split_paths(&path)
        .map(|d| d.join(program))
        .find(|p| p.exists())
        .unwrap()
}

/// Stops this test's own leftovers (found by a marker unique to the case), by their ids.
fn stop_processes_with(marker: &str) {
    let out = std::process::Command::new("pgrep")
        .args(["-f", marker])
        .output()
        .unwrap();
    for pid in String::from_utf8_lossy(&out.stdout).lines() {
        if let Ok(pid) = pid.trim().parse::<i32>() {
            // SAFETY: kill only sends a signal, to a process of this test's own.
            unsafe {
                libc::kill(pid, libc::SIGKILL);
            }
        }
    }
}

/// A test that says not interesting twice (the first check) and interesting after is flaky,
/// and the diagnosis says so rather than blaming the working directory.
#[test]
fn a_test_that_changes_its_mind_is_called_flaky_not_dependent_on_its_directory() {
    let case = Case::new();
    case.file("in.txt", b"a\nb\n");
    case.file("count", b"0\n");
    case.script(
        "t.sh",
        &format!(
            "n=$(cat {c}); echo $((n + 1)) > {c}; [ $n -ge 2 ]",
            c = case.path("count").display()
        ),
    );
    let out = case.run(&["reduce", "-j", "1", "--no-run-dir", "./t.sh", "in.txt"]);
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(4), "{err}");
    assert!(err.contains("may be flaky"), "{err}");
    assert!(!err.contains("working directory"), "{err}");
    assert_eq!(case.read("in.txt"), b"a\nb\n");
}

/// The diagnosis of an uninteresting original runs its tests through the evaluator and says
/// how many it ran: here once more as myhill runs it, twice to rule out a flaky test, and once
/// beside a copy of the input's directory.
#[test]
fn the_diagnosis_counts_the_tests_it_runs() {
    let case = Case::new();
    case.file("in.txt", b"a\nb\n");
    case.file("count", b"0\n");
    case.script(
        "t.sh",
        &format!(
            "n=$(cat {c}); echo $((n + 1)) > {c}; exit 1",
            c = case.path("count").display()
        ),
    );
    let out = case.run(&[
        "reduce",
        "--first-runs",
        "1",
        "--no-run-dir",
        "./t.sh",
        "in.txt",
    ]);
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(3), "{err}");
    assert!(
        err.contains("ran 4 more time(s) for this diagnosis"),
        "{err}"
    );
    assert_eq!(case.read("count"), b"5\n", "{err}");
}

/// A relative launcher is taken from the current directory (not the test's), a launcher
/// that cannot start is named as such, and the diagnosis's command runs the test through it.
#[test]
fn a_relative_launcher_is_found_named_and_reproduced() {
    let case = Case::new();
    case.file("in.txt", b"keep\ndrop\n");
    case.script("lok.sh", "exec \"$@\"");
    case.script("t.sh", "grep -q keep \"$1\"");
    let out = case.run(&[
        "reduce",
        "-j",
        "1",
        "--no-run-dir",
        "--launcher",
        "./lok.sh",
        "./t.sh",
        "in.txt",
        "-o",
        "out",
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(case.read("out").trim_ascii_end(), b"keep");

    // A launcher that is there but cannot run: the error names the launcher, not the test.
    case.file("broken.sh", b"#!/no/such/interpreter\n");
    std::fs::set_permissions(
        case.path("broken.sh"),
        std::os::unix::fs::PermissionsExt::from_mode(0o755),
    )
    .unwrap();
    let out = case.run(&[
        "reduce",
        "-j",
        "1",
        "--no-run-dir",
        "--launcher",
        "./broken.sh",
        "./t.sh",
        "in.txt",
        "-o",
        "out",
    ]);
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains("launcher"), "{err}");
    assert!(!err.contains("cannot run the test"), "{err}");

    // The reproduce line of an uninteresting original runs the launcher too.
    case.script("no.sh", "exit 1");
    let out = case.run(&[
        "reduce",
        "-j",
        "1",
        "--no-run-dir",
        "--launcher",
        "./lok.sh",
        "./no.sh",
        "in.txt",
        "-o",
        "out",
    ]);
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(3), "{err}");
    let reproduce = err
        .lines()
        .find(|l| l.contains("mktemp -d"))
        .unwrap_or_else(|| panic!("no reproduce line: {err}"));
    let launcher = case.path("lok.sh");
    let test = case.path("no.sh");
    let (l, t) = (
        reproduce.find(launcher.to_str().unwrap()),
        reproduce.find(test.to_str().unwrap()),
    );
    assert!(l.is_some() && t.is_some() && l < t, "{reproduce}");
}

/// The words of errors: a signal is named as one, codes that can never match are refused
/// before any test, a test that vanishes mid-run is named in the stats file, a bad
/// `--stats-json` path is refused before the run, and `-q` keeps the `--max-tests` line quiet.
#[test]
fn errors_say_what_happened_and_come_before_the_run() {
    let case = Case::new();
    let input: String = (0..40).map(|i| format!("line {i}\n")).collect();
    case.file("in.txt", input.as_bytes());
    case.script("segv.sh", "kill -SEGV $$");
    let out = case.run(&["reduce", "--no-run-dir", "./segv.sh", "in.txt", "-o", "out"]);
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(3), "{err}");
    assert!(err.contains("was killed by signal 11 (SIGSEGV)"), "{err}");
    assert!(!err.contains("gave killed"), "{err}");

    // Codes no exit status can have are refused, as is a stats file in no directory; no
    // test runs for any of them.
    case.file("count", b"");
    case.script(
        "t.sh",
        &format!(
            "echo run >> {}; grep -q '^line 17$' \"$1\"",
            case.path("count").display()
        ),
    );
    for bad in [
        &["--expect-exit", "999"][..],
        &["--expect-exit", "-1"],
        &["--also-interesting", "300"],
        &["--stats-json", "no/such/dir/stats.json"],
        &["--stats-json", "."],
    ] {
        let mut args = vec!["reduce", "--no-run-dir", "-o", "out"];
        args.extend_from_slice(bad);
        args.extend_from_slice(&["./t.sh", "in.txt"]);
        let out = case.run(&args);
        let err = stderr(&out);
        assert_eq!(out.status.code(), Some(2), "{bad:?}: {err}");
        assert!(
            err.contains(bad[0]) || err.contains("0..=255"),
            "{bad:?}: {err}"
        );
    }
    assert_eq!(case.read("count"), b"", "a test ran before the refusal");

    // -q: nothing but errors and warnings, the budget's end included.
    let out = case.run(&[
        "reduce",
        "-q",
        "-j",
        "1",
        "--no-run-dir",
        "--max-tests",
        "5",
        "./t.sh",
        "in.txt",
        "-o",
        "out",
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(stderr(&out), "", "-q printed something");

    // The test vanishes after its fifth run: the stats file says why the run stopped.
    std::fs::write(case.path("count"), b"").unwrap();
    case.script(
        "vanishing.sh",
        &format!(
            "echo run >> {c}; [ $(wc -l < {c}) -ge 5 ] && rm -f {me}; grep -q '^line 17$' \"$1\"",
            c = case.path("count").display(),
            me = case.path("vanishing.sh").display()
        ),
    );
    let out = case.run(&[
        "reduce",
        "-j",
        "1",
        "--no-run-dir",
        "--stats-json",
        "stats.json",
        "./vanishing.sh",
        "in.txt",
        "-o",
        "out",
    ]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    let stats = common::json(&case.path("stats.json"));
    assert_eq!(stats["ended"], "test_error");
    let message = stats["message"].as_str().unwrap_or_default();
    assert!(message.contains("vanishing.sh"), "{stats}");
}

/// When a run cannot be resumed because its test changed, the suggested new run keeps the
/// input's extension (a compiler test needs it).
#[test]
fn the_suggested_new_run_keeps_the_inputs_extension() {
    let case = Case::new();
    case.file("in.c", b"int a;\nint b;\n");
    case.script("t.sh", "grep -q 'int a' \"$1\"");
    let run = case.path("run");
    let out = case.run(&[
        "reduce",
        "-j",
        "1",
        "--max-tests",
        "3",
        "--run-dir",
        run.to_str().unwrap(),
        "./t.sh",
        "in.c",
        "-o",
        "out.c",
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    case.script("t.sh", "grep -q 'int' \"$1\"");
    let out = case.run(&["reduce", "--resume", run.to_str().unwrap()]);
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains("in.best.c"), "{err}");
    assert!(!err.contains("myhill reduce TEST /"), "{err}");
}
