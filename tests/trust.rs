//! Nothing lost while a run is going: what `myhill runs remove` may remove, a test that stops
//! working mid-run, edits made to the input during an in-place run, `-o` naming the test's
//! files, and what reaches the terminal from a test.

mod common;

use common::{Case, stderr};
use std::path::Path;

/// 60 lines `line N`; interesting while `line 17` survives.
fn simple_case() -> Case {
    let case = Case::new();
    let input: String = (1..=60).map(|i| format!("line {i}\n")).collect();
    case.file("in.txt", input.as_bytes());
    case.script("t.sh", "grep -q '^line 17$' \"$1\"");
    case
}

fn tree_files(dir: &Path) -> usize {
    std::fs::read_dir(dir).map_or(0, |d| d.count())
}

#[test]
fn runs_remove_removes_only_what_is_a_run() {
    let case = simple_case();
    let root = case.state.path().join("myhill/runs");
    std::fs::create_dir_all(&root).unwrap();
    // Photos with a meta.json of their own, under the root and elsewhere; a marker alone; a
    // marker with a meta.json that is not a run's.
    for dir in [root.join("photos"), case.path("photos")] {
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join("meta.json"), b"{\"camera\": \"x\"}").unwrap();
        std::fs::write(dir.join("img1.jpg"), b"jpeg").unwrap();
    }
    let marked = case.path("marked");
    std::fs::create_dir(&marked).unwrap();
    std::fs::write(marked.join(myhill::runs::MARKER), b"").unwrap();
    std::fs::write(marked.join("keep.txt"), b"mine").unwrap();
    let both = root.join("both");
    std::fs::create_dir(&both).unwrap();
    std::fs::write(both.join(myhill::runs::MARKER), b"").unwrap();
    std::fs::write(both.join("meta.json"), b"{}").unwrap();
    for (target, dir) in [
        ("photos", root.join("photos")),
        (case.path("photos").to_str().unwrap(), case.path("photos")),
        ("marked", marked.clone()),
        ("both", both.clone()),
    ] {
        let before = tree_files(&dir);
        let out = case.run(&["runs", "remove", target]);
        assert_eq!(out.status.code(), Some(2), "{target}: {}", stderr(&out));
        assert!(
            stderr(&out).contains("not a myhill run"),
            "{target}: {}",
            stderr(&out)
        );
        assert_eq!(tree_files(&dir), before, "{target}");
    }
    // A real run, kept outside the runs directory, is removed.
    let out = case.run(&[
        "reduce",
        "--run-dir",
        "kept",
        "-o",
        "out.txt",
        "./t.sh",
        "in.txt",
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let out = case.run(&["runs", "remove", "kept"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(!case.path("kept").exists());
}

/// A test that calls a script which stops being executable after `calls` tests.
fn breaking_case(calls: usize) -> Case {
    let case = Case::new();
    let input: String = (1..=60).map(|i| format!("line {i}\n")).collect();
    case.file("in.txt", input.as_bytes());
    let check = case.script("check.sh", "grep -q '^line 17$' \"$1\"");
    let log = case.path("calls");
    case.script(
        "t.sh",
        &format!(
            "echo >> {log}\nif [ \"$(wc -l < {log})\" -gt {calls} ]; then chmod -x {check}; fi\n{check} \"$1\"",
            log = log.display(),
            check = check.display()
        ),
    );
    case
}

#[test]
fn a_test_that_breaks_mid_run_stops_the_run_and_keeps_the_best() {
    let case = breaking_case(6);
    let out = case.run(&[
        "reduce",
        "-j1",
        "--run-dir",
        "run",
        "-o",
        "out.txt",
        "./t.sh",
        "in.txt",
    ]);
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(
        err.contains("the test now fails on the original: exit 126"),
        "{err}"
    );
    // The best found before the test broke stays where it was, not the original.
    let best = case.read("out.txt");
    let original = case.read("in.txt");
    assert!(
        best.len() < original.len(),
        "{}",
        String::from_utf8_lossy(&best)
    );
    assert!(String::from_utf8_lossy(&best).contains("line 17"));
    assert_eq!(best, case.read("run/best"));
    // No endless run of failing tests: it stopped soon after the break.
    assert!(common::line_count(&case.path("calls")) < 400, "{err}");

    // Any step of the run can be restored.
    let out = case.run(&["runs", "restore", "run", "--step", "0", "-o", "step0.txt"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(case.read("step0.txt"), original);
    let steps = myhill::runs::replay_steps(&case.path("run")).unwrap();
    assert!(!steps.is_empty());
    let last = steps.len().to_string();
    let out = case.run(&["runs", "restore", "run", "--step", &last, "-o", "last.txt"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(&case.read("last.txt"), steps.last().unwrap());
    // Never over an existing file, never past the last step.
    let out = case.run(&["runs", "restore", "run", "--step", "0", "-o", "in.txt"]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    let past = (steps.len() + 1).to_string();
    let out = case.run(&["runs", "restore", "run", "--step", &past, "-o", "x.txt"]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(!case.path("x.txt").exists());
}

#[test]
fn o_never_names_a_file_the_tests_shell_command_names() {
    let case = simple_case();
    let script = case.path("t.sh");
    let before = case.read("t.sh");
    let log = case.file("log.txt", b"keep me\n");
    for (test, output) in [
        (format!("sh -c '{} \"$1\"' sh", script.display()), "t.sh"),
        ("sh -c './t.sh \"$1\"' sh".to_string(), "t.sh"),
        (
            format!("sh -c '{} \"$1\" >{}' sh", script.display(), log.display()),
            "log.txt",
        ),
        ("sh -c 'cd . && ./t.sh \"$1\";' sh".to_string(), "t.sh"),
    ] {
        let out = case.run(&["reduce", "-o", output, &test, "in.txt"]);
        assert_eq!(out.status.code(), Some(2), "{test}: {}", stderr(&out));
        assert!(
            stderr(&out).contains("the result would replace it"),
            "{test}: {}",
            stderr(&out)
        );
    }
    assert_eq!(case.read("t.sh"), before);
    assert_eq!(case.read("log.txt"), b"keep me\n");
}

#[test]
fn the_diagnosis_escapes_what_the_test_printed() {
    let case = Case::new();
    case.file("in.txt", b"hello\n");
    case.script(
        "t.sh",
        "head -c 100000 /dev/zero\nprintf '\\nbefore\\033[2J\\033]2;renamed\\007\\r\\n'\n\
         printf 'oops\\033[H\\n' >&2\nexit 1",
    );
    let out = case.run(&["reduce", "-o", "out.txt", "./t.sh", "in.txt"]);
    assert_eq!(out.status.code(), Some(3), "{}", stderr(&out));
    let err = out.stderr.clone();
    for byte in [0x1b_u8, 0x00, 0x07, b'\r'] {
        assert!(!err.contains(&byte), "byte {byte:#x} in: {}", stderr(&out));
    }
    let text = stderr(&out);
    assert!(text.contains("not interesting"), "{text}");
    assert!(text.contains("\\e[2J"), "{text}");
    assert!(text.contains("oops\\e[H"), "{text}");
    assert!(text.len() < 20_000, "{text}");
}

/// In place, with one job: after `calls` tests, the test itself edits INPUT as a user would
/// (appends a line), or adds a file to the tree.
fn editing_case(calls: usize, edit: &str) -> Case {
    let case = Case::new();
    let input: String = (1..=60).map(|i| format!("line {i}\n")).collect();
    case.file("in.txt", input.as_bytes());
    let log = case.path("calls");
    case.script(
        "t.sh",
        &format!(
            "echo >> {log}\nif [ \"$(wc -l < {log})\" -eq {calls} ]; then {edit}; fi\n\
             grep -rq '^line 17$' \"$1\"",
            log = log.display(),
        ),
    );
    case
}

#[test]
fn an_input_edited_during_an_in_place_run_is_left_as_edited() {
    let target = tempfile::tempdir().unwrap();
    let input = target.path().join("in.txt");
    let case = editing_case(8, &format!("echo 'my own line' >> {}", input.display()));
    std::fs::copy(case.path("in.txt"), &input).unwrap();
    let input_arg = input.to_str().unwrap();
    let out = case.run(&["reduce", "-j1", "--run-dir", "run", "./t.sh", input_arg]);
    let err = stderr(&out);
    assert!(common::line_count(&case.path("calls")) > 8, "{err}");
    let now = std::fs::read_to_string(&input).unwrap();
    assert!(now.ends_with("my own line\n"), "{now:?}\n{err}");
    assert!(err.contains("changed since myhill wrote it"), "{err}");
    // The best is in the run directory, and the run says so.
    let best = case.read("run/best");
    assert!(String::from_utf8_lossy(&best).contains("line 17"));
    assert!(best.len() < 60, "{}", String::from_utf8_lossy(&best));
    assert!(err.contains("run/best"), "{err}");
}

#[test]
fn a_file_added_to_a_tree_during_an_in_place_run_is_never_deleted() {
    let target = tempfile::tempdir().unwrap();
    let proj = target.path().join("proj");
    std::fs::create_dir(&proj).unwrap();
    let input: String = (1..=60).map(|i| format!("line {i}\n")).collect();
    std::fs::write(proj.join("a.txt"), &input).unwrap();
    std::fs::write(proj.join("b.txt"), &input).unwrap();
    let notes = proj.join("NOTES.txt");
    let case = editing_case(8, &format!("echo mine > {}", notes.display()));
    let out = case.run(&[
        "reduce",
        "-j1",
        "--run-dir",
        "run",
        "./t.sh",
        proj.to_str().unwrap(),
    ]);
    let err = stderr(&out);
    assert!(common::line_count(&case.path("calls")) > 8, "{err}");
    assert_eq!(
        std::fs::read_to_string(&notes).ok().as_deref(),
        Some("mine\n"),
        "{err}"
    );
    assert!(err.contains("changed since myhill wrote it"), "{err}");
}

#[test]
fn help_manual_and_readme_say_test_then_input_and_what_a_directory_input_is() {
    let case = simple_case();
    let page = case.run(&["man", "reduce"]);
    assert!(page.status.success());
    let page = String::from_utf8_lossy(&page.stdout).into_owned();
    let synopsis = page
        .lines()
        .find(|l| l.starts_with("\\fBmyhill reduce\\fR"))
        .unwrap_or_default()
        .to_string();
    let (test, input) = (synopsis.find("TEST"), synopsis.find("INPUT"));
    assert!(test.is_some() && input.is_some(), "{synopsis}");
    assert!(test < input, "{synopsis}");
    for text in [
        page,
        String::from_utf8_lossy(&case.run(&["reduce", "--help"]).stdout).into_owned(),
    ] {
        assert!(text.contains("A directory as INPUT"), "{text}");
        assert!(text.contains("file or directory to reduce"), "{text}");
    }
    let readme =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/README.md")).unwrap();
    let exits = readme
        .split("**Exit codes:**")
        .nth(1)
        .and_then(|rest| rest.split("\n\n").next())
        .unwrap()
        .to_string();
    assert!(!exits.contains("a directory as input"), "{exits}");
    // --input-mode stdin is not silently ignored for a directory.
    std::fs::create_dir(case.path("proj")).unwrap();
    case.file("proj/a.txt", b"line 17\n");
    let out = case.run(&["reduce", "--input-mode", "stdin", "./t.sh", "proj"]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("--input-mode stdin"),
        "{}",
        stderr(&out)
    );
}

/// Waits up to `seconds` until no process's command line holds `marker`.
fn gone(marker: &str, seconds: u64) -> bool {
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(seconds);
    while std::time::Instant::now() < deadline {
        if common::processes_with(marker) == 0 {
            return true;
        }
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    false
}

/// myhill killed by SIGKILL: the test it was running goes too (a parent-death signal).
#[test]
fn a_test_does_not_outlive_a_killed_myhill() {
    let case = simple_case();
    // A command line of its own, so only this case's test is counted.
    let sleeper = case.path("sleeper-of-this-case");
    let sleep = std::env::split_paths(&std::env::var_os("PATH").unwrap())
        .map(|d| d.join("sleep"))
        .find(|p| p.exists())
        .unwrap();
    std::os::unix::fs::symlink(sleep, &sleeper).unwrap();
    let started = case.path("started");
    case.script(
        "slow.sh",
        &format!(
            "touch {}\nexec {} 300",
            started.display(),
            sleeper.display()
        ),
    );
    let mut child = case
        .command(&["reduce", "-j1", "-o", "out.txt", "./slow.sh", "in.txt"])
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    assert!(common::wait_for(&started, 60));
    let marker = sleeper.to_string_lossy().into_owned();
    assert_eq!(common::processes_with(&marker), 1);
    common::signal(&child, libc::SIGKILL);
    let _ = child.wait();
    let left = !gone(&marker, 30);
    if left {
        // Not left running for the next tests: stopped by its id.
        let out = std::process::Command::new("pgrep")
            .args(["-f", &marker])
            .output()
            .unwrap();
        for pid in String::from_utf8_lossy(&out.stdout).lines() {
            if let Ok(pid) = pid.trim().parse::<i32>() {
                // SAFETY: kill only sends a signal, to this case's own test.
                unsafe { libc::kill(pid, libc::SIGKILL) };
            }
        }
    }
    assert!(!left, "the test outlived myhill");
}

/// A run killed by SIGKILL in the middle of a test leaves that test's directory; the resume
/// removes it.
#[test]
fn a_resume_removes_the_test_directories_a_killed_run_left() {
    let case = simple_case();
    let (started, hold) = held_test(&case);
    let mut child = case
        .command(&[
            "reduce",
            "-j2",
            "--run-dir",
            "run",
            "-o",
            "out.txt",
            "./held.sh",
            "in.txt",
        ])
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    assert!(common::wait_for(&started, 60));
    common::signal(&child, libc::SIGKILL);
    let _ = child.wait();
    std::fs::remove_file(&hold).unwrap();
    assert!(
        !case.temp_leftovers().is_empty(),
        "the killed run left nothing to remove"
    );
    let out = case.run(&["reduce", "--resume", "run"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("the killed run left"),
        "{}",
        stderr(&out)
    );
    assert_eq!(case.temp_leftovers(), Vec::<String>::new());
}

/// A directory input with links that leave it: named at the start, with where they point; a
/// first check that fails names the one that dangles in the copies.
#[test]
fn links_that_leave_a_directory_input_are_named() {
    let case = simple_case();
    let proj = case.path("proj");
    std::fs::create_dir_all(proj.join("lib")).unwrap();
    std::fs::create_dir_all(case.path("shared")).unwrap();
    case.file("shared/x", b"line 17\n");
    case.file("outside.txt", b"1\n2\n3\n");
    std::os::unix::fs::symlink("../../shared/x", proj.join("lib/x")).unwrap();
    std::os::unix::fs::symlink(case.path("outside.txt"), proj.join("abs")).unwrap();
    case.file("proj/a.txt", b"hello\n");
    // Interesting only if the relative link reaches its file: never in a copy.
    case.script("t.sh", "grep -q '^line 17$' lib/x");
    let out = case.run(&["reduce", "-o", "out", "./t.sh", "proj"]);
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(3), "{err}");
    assert!(err.contains("leave the tree"), "{err}");
    assert!(
        err.contains(&format!("abs -> {}", case.path("outside.txt").display())),
        "{err}"
    );
    let diagnosis = err.split("not interesting").nth(1).unwrap_or_default();
    assert!(diagnosis.contains("lib/x -> ../../shared/x"), "{err}");
    assert!(diagnosis.contains("dangle"), "{err}");
}

/// Swapped arguments: the advice asks whether TEST and INPUT are swapped rather than say
/// chmod +x; shell syntax in TEST is warned of.
#[test]
fn swapped_arguments_and_shell_syntax_are_named() {
    let case = simple_case();
    let out = case.run(&["reduce", "in.txt", "./t.sh"]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(stderr(&out).contains("swapped"), "{}", stderr(&out));
    assert!(stderr(&out).contains("#!"), "{}", stderr(&out));
    let out = case.run(&["reduce", "-o", "out.txt", "./t.sh 2>&1 | cat", "in.txt"]);
    assert!(stderr(&out).contains("sh -c"), "{}", stderr(&out));
    assert!(stderr(&out).contains("\"2>&1\""), "{}", stderr(&out));
}

/// A test that says not interesting three times and then interesting twice: run once more
/// as myhill runs it and twice beside the input, it passed for one that needs its
/// directory; run enough times on each side, it is told flaky.
#[test]
fn a_flaky_test_is_not_taken_for_one_that_needs_its_directory() {
    let case = Case::new();
    case.file("in.txt", b"a\nb\n");
    case.file("count", b"0\n");
    case.script(
        "t.sh",
        &format!(
            "n=$(cat {c}); echo $((n + 1)) > {c}; [ $n -eq 3 ] || [ $n -eq 4 ]",
            c = case.path("count").display()
        ),
    );
    let out = case.run(&["reduce", "-j", "1", "--no-run-dir", "./t.sh", "in.txt"]);
    let err = stderr(&out);
    assert!(err.contains("may be flaky"), "{err}");
    assert!(!err.contains("depends on its working directory"), "{err}");
}

/// `held.sh`: a test that says it started (`started`), then waits while `hold` exists, then
/// keeps line 17; returns the two paths.
fn held_test(case: &Case) -> (std::path::PathBuf, std::path::PathBuf) {
    let (started, hold) = (case.path("started"), case.path("hold"));
    case.script(
        "held.sh",
        &format!(
            "touch {}\nwhile [ -e {} ]; do sleep 0.02; done\ngrep -q '^line 17$' \"$1\"",
            started.display(),
            hold.display()
        ),
    );
    case.file("hold", b"");
    (started, hold)
}

/// Small words: a run stopped by Ctrl-C in its first check is listed as stopped, not
/// killed; one file is "1 file"; a timeout stretched for many jobs per core is said.
#[test]
fn runs_list_files_and_the_shared_timeout_say_what_is_so() {
    let case = simple_case();
    let (started, hold) = held_test(&case);
    let mut child = case
        .command(&["reduce", "-j1", "-o", "out.txt", "./held.sh", "in.txt"])
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    assert!(common::wait_for(&started, 60));
    common::signal(&child, libc::SIGINT);
    let status = child.wait().unwrap();
    std::fs::remove_file(&hold).unwrap();
    assert_eq!(status.code(), Some(130));
    let out = case.run(&["runs", "list"]);
    let listing = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(listing.contains("stopped"), "{listing}");
    assert!(!listing.contains("killed"), "{listing}");

    std::fs::create_dir(case.path("proj")).unwrap();
    case.file("proj/a.txt", b"line 17\nline 18\n");
    case.file("proj/b.txt", b"other\n");
    let jobs = (2 * std::thread::available_parallelism().map_or(1, |n| n.get())).to_string();
    case.script("tree.sh", "grep -rq '^line 17$' \"$1\"");
    let out = case.run(&["reduce", "-j", &jobs, "-o", "out", "./tree.sh", "proj"]);
    let err = stderr(&out);
    assert!(out.status.success(), "{err}");
    assert!(err.contains("-> 1 file,"), "{err}");
    assert!(!err.contains("1 files"), "{err}");
    assert!(err.contains("tests share each core"), "{err}");
}

/// The id of a process that has ended (and was reaped).
fn dead_pid() -> u32 {
    let mut child = std::process::Command::new("true").spawn().unwrap();
    let pid = child.id();
    child.wait().unwrap();
    pid
}

#[test]
fn half_made_run_directories_of_dead_processes_are_removed_and_live_ones_kept() {
    let case = simple_case();
    let dead = format!(".myhill-new-run-{}-aBc123", dead_pid());
    let live = format!(".myhill-new-run-{}-dEf456", std::process::id());
    for name in [&dead, &live] {
        std::fs::create_dir(case.path(name)).unwrap();
        case.file(&format!("{name}/original"), b"x");
    }
    let out = case.run(&[
        "reduce",
        "--max-tests",
        "5",
        "--run-dir",
        "run",
        "-o",
        "out.txt",
        "./t.sh",
        "in.txt",
    ]);
    assert!(case.path("run/MYHILL-RUN").is_file(), "{}", stderr(&out));
    assert!(!case.path(&dead).exists(), "{:?}", case.entries());
    assert!(case.path(&live).is_dir(), "{:?}", case.entries());

    // A resume cleans up beside its run directory as well.
    let dead = format!(".myhill-new-run-{}-gHi789", dead_pid());
    std::fs::create_dir(case.path(&dead)).unwrap();
    let out = case.run(&["reduce", "--resume", "run"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(!case.path(&dead).exists(), "{:?}", case.entries());
    assert!(case.path(&live).is_dir(), "{:?}", case.entries());
}

#[test]
fn a_second_in_place_run_on_the_same_input_is_refused_naming_the_first() {
    let case = simple_case();
    let (started, hold) = held_test(&case);
    let mut first = case
        .command(&["reduce", "-j1", "--run-dir", "run", "./held.sh", "in.txt"])
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    assert!(common::wait_for(&started, 60));
    let out = case.run(&["reduce", "-j1", "--no-run-dir", "./t.sh", "in.txt"]);
    let err = stderr(&out);
    let refused = out.status.code() == Some(2)
        && err.contains("in.txt is being reduced in place by another myhill")
        && err.contains(&format!("process {}", first.id()))
        && err.contains("run directory");
    std::fs::remove_file(&hold).unwrap();
    let status = first.wait().unwrap();
    assert!(refused, "{err}");
    assert!(status.success());
    assert_eq!(case.read("in.txt").trim_ascii(), b"line 17");
    assert!(
        !case.entries().iter().any(|e| e.contains("lock")),
        "{:?}",
        case.entries()
    );
    // Once the first has ended the input is free again; -o never takes the lock.
    case.file("in.txt", &case.read("in.txt.orig"));
    let out = case.run(&[
        "reduce",
        "-j1",
        "--no-run-dir",
        "-o",
        "o.txt",
        "./t.sh",
        "in.txt",
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
}
