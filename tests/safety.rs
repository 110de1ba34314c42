//! Never lose or damage work: one regression test per way a user's file or machine was harmed.

mod common;

use common::{Case, json, signal, stderr, wait_for};
use std::io::Read;
use std::os::unix::fs::FileTypeExt;
use std::process::Stdio;
use std::time::Duration;

/// Interrupting the final confirmation of a result (the budget ran out inside a pass) keeps
/// the reduced result, not the original, prints no false "flaky" warning, and exits 130.
#[test]
fn ctrl_c_during_the_final_confirmation_keeps_the_result_and_exits_130() {
    let case = Case::new();
    let input: String = (0..200).map(|i| format!("line {i}\n")).collect();
    case.file("in.txt", input.as_bytes());
    case.file("same.txt", input.as_bytes());
    std::fs::create_dir(case.path("seen")).unwrap();
    let rerunning = case.path("rerunning");
    // The second run of the same bytes hangs, as a slow test would while the user presses
    // Ctrl-C; the budget ends inside the first pass, so that run is the final confirmation.
    case.script(
        "t.sh",
        &format!(
            r#"cmp -s "$1" {same} && exit 0
h=$(cksum < "$1" | cut -d' ' -f1)
if [ -e {seen}/$h ]; then touch {rerunning}; sleep 30; fi
touch {seen}/$h
grep -q "^line 150$" "$1""#,
            seen = case.path("seen").display(),
            rerunning = rerunning.display(),
            same = case.path("same.txt").display()
        ),
    );
    let child = case
        .command(&[
            "reduce",
            "-j",
            "1",
            "--max-tests",
            "10",
            "./t.sh",
            "in.txt",
            "-o",
            "out",
        ])
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    assert!(
        wait_for(&rerunning, 20),
        "the final confirmation never started"
    );
    signal(&child, libc::SIGINT);
    let out = child.wait_with_output().unwrap();
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(130), "{err}");
    let result = case.read("out");
    assert!(result.len() < input.len(), "the original was written back");
    assert!(String::from_utf8_lossy(&result).contains("line 150\n"));
    assert!(!err.contains("flaky"), "{err}");
}

/// `-o` may not name INPUT itself, under any spelling, nor anything but a regular file; the
/// refusal comes before any test runs.
#[test]
fn output_may_not_be_the_input_or_a_special_file() {
    let case = Case::new();
    case.file("in.txt", b"keep x");
    let ran = case.path("ran");
    case.script(
        "t.sh",
        &format!(r#"touch {}; grep -q x "$1""#, ran.display()),
    );
    let fifo = case.path("fifo");
    let status = std::process::Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .unwrap();
    assert!(status.success());
    std::fs::hard_link(case.path("in.txt"), case.path("hard.txt")).unwrap();
    let absolute = case.path("in.txt").display().to_string();
    let fifo_path = fifo.display().to_string();
    for output in [
        "in.txt",
        "./in.txt",
        absolute.as_str(),
        "hard.txt",
        "/dev/null",
        fifo_path.as_str(),
    ] {
        let out = case.run(&["reduce", "./t.sh", "in.txt", "-o", output]);
        let err = stderr(&out);
        assert_eq!(out.status.code(), Some(2), "-o {output}: {err}");
        assert!(err.contains("-o"), "-o {output}: {err}");
        assert!(!ran.exists(), "-o {output}: a test ran");
    }
    assert_eq!(case.read("in.txt"), b"keep x");
    assert!(!case.path("in.txt.orig").exists());
    assert!(std::fs::metadata(&fifo).unwrap().file_type().is_fifo());
}

/// Explaining an uninteresting original never runs the test on INPUT or in its directory,
/// and the printed recipe reproduces the failure in a fresh temporary copy.
#[test]
fn the_diagnosis_leaves_the_input_and_its_directory_alone() {
    let case = Case::new();
    case.file("in.txt", b"hello");
    // Writes to its argument and beside it, then fails.
    case.script(
        "t.sh",
        r#"echo scribble >> "$1"; touch "$(dirname "$1")/left-behind"; exit 1"#,
    );
    let before = case.entries();
    let out = case.run(&["reduce", "./t.sh", "in.txt"]);
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(3), "{err}");
    assert_eq!(case.read("in.txt"), b"hello", "the input was changed");
    assert_eq!(case.entries(), before, "files appeared beside the input");
    let recipe = err
        .lines()
        .skip_while(|l| !l.contains("Reproduce it"))
        .nth(1)
        .expect("a recipe")
        .trim()
        .to_string();
    let pasted = std::process::Command::new("sh")
        .args(["-c", &recipe])
        .env("TMPDIR", case.path("tmp"))
        .output()
        .unwrap();
    let said = String::from_utf8_lossy(&pasted.stdout);
    assert!(said.contains("exit status 1"), "{recipe}: {said}");
    assert_eq!(
        case.read("in.txt"),
        b"hello",
        "the recipe changed the input"
    );
    assert_eq!(
        case.entries(),
        before,
        "the recipe left files beside the input"
    );
}

/// Cancelled speculative tests leave nothing in the user's TMPDIR: not the directory a shell
/// made with `mktemp -d` and meant to remove in a trap that a signal never lets run.
#[test]
fn cancelled_tests_leave_nothing_in_tmpdir() {
    let case = Case::new();
    let input: String = (0..40).map(|i| format!("line {i}\n")).collect();
    case.file("in.txt", input.as_bytes());
    case.script(
        "t.sh",
        r#"d=$(mktemp -d); trap 'rm -rf "$d"' EXIT
cp "$1" "$d/copy"; sleep 0.2; grep -q '^line 7$' "$d/copy""#,
    );
    let out = case.run(&[
        "reduce",
        "-q",
        "-j",
        "4",
        "--strategy",
        "ddmin",
        "--units",
        "lines",
        "./t.sh",
        "in.txt",
        "-o",
        "out",
        "--stats-json",
        "s.json",
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(case.read("out"), b"line 7\n");
    let stats = json(&case.path("s.json"));
    assert!(stats["speculative_wasted"].as_u64().unwrap() > 0, "{stats}");
    assert_eq!(case.temp_leftovers(), Vec::<String>::new());
}

/// Two quick Ctrl-Cs still stop cleanly: the best is written, exit 130, and neither myhill's
/// temporary directories (slow to remove here: each test leaves 10,000 files) nor a
/// half-written result file are left behind.
#[test]
fn a_double_ctrl_c_leaves_nothing_behind() {
    let case = Case::new();
    let input: String = (0..200).map(|i| format!("line {i}\n")).collect();
    case.file("in.txt", input.as_bytes());
    case.file("same.txt", input.as_bytes());
    let started = case.path("started");
    // The original passes at once; every other candidate leaves many files and is slow.
    case.script(
        "t.sh",
        &format!(
            r#"cmp -s "$1" {} && exit 0
mkdir many && (cd many && seq 1 10000 | xargs touch)
touch {}; sleep 5; grep -q "^line 50$" "$1""#,
            case.path("same.txt").display(),
            started.display()
        ),
    );
    let child = case
        .command(&["reduce", "-j", "2", "--timeout", "20", "./t.sh", "in.txt"])
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    assert!(wait_for(&started, 30));
    std::thread::sleep(Duration::from_millis(300));
    signal(&child, libc::SIGINT);
    // Apart enough to be two signals, not one.
    std::thread::sleep(Duration::from_millis(20));
    signal(&child, libc::SIGINT);
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(130), "{}", stderr(&out));
    assert_eq!(case.read("in.txt.orig"), input.as_bytes());
    let result = String::from_utf8_lossy(&case.read("in.txt")).into_owned();
    assert!(result.lines().any(|l| l == "line 50"), "{result}");
    std::thread::sleep(Duration::from_millis(200));
    assert_eq!(case.temp_leftovers(), Vec::<String>::new());
    let stray: Vec<String> = case
        .entries()
        .into_iter()
        .filter(|n| n.starts_with(".myhill-"))
        .collect();
    assert_eq!(stray, Vec::<String>::new());
}

/// A closed pipe on stderr (`myhill reduce ... 2>&1 | head -1`) does not end the run.
#[test]
fn a_closed_pipe_does_not_kill_the_reduction() {
    let case = Case::new();
    let input: String = (0..60).map(|i| format!("line {i}\n")).collect();
    case.file("in.txt", input.as_bytes());
    case.script("t.sh", r#"grep -q "^line 33$" "$1""#);
    let mut child = case
        .command(&["reduce", "-j", "1", "./t.sh", "in.txt", "-o", "out"])
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut first = [0u8; 16];
    child
        .stderr
        .as_mut()
        .unwrap()
        .read_exact(&mut first)
        .unwrap();
    drop(child.stderr.take());
    let status = child.wait().unwrap();
    assert_eq!(status.code(), Some(0));
    assert!(case.read("out").starts_with(b"line 33"));
}

/// Timeouts too large for any clock are refused with a message, not a panic or a wrap.
#[test]
fn absurd_timeouts_are_refused() {
    let case = Case::new();
    case.file("in.txt", b"x");
    case.script("t.sh", r#"grep -q x "$1""#);
    for timeout in ["1e300", "18446744073709552", "0", "-1", "nan", "inf"] {
        let arg = format!("--timeout={timeout}");
        let out = case.run(&["reduce", &arg, "./t.sh", "in.txt"]);
        let err = stderr(&out);
        assert_eq!(out.status.code(), Some(2), "--timeout {timeout}: {err}");
        assert!(err.contains("--timeout"), "--timeout {timeout}: {err}");
        assert!(!err.contains("panicked"), "--timeout {timeout}: {err}");
    }
}

/// A test that hangs on the original costs one timeout, not one per first-check run: with one
/// job the check stops after the first run, with more its runs go at once.
#[test]
fn a_hang_on_the_original_costs_one_timeout() {
    for (jobs, most_runs) in [("1", 1), ("2", 2)] {
        let case = Case::new();
        case.file("in.txt", b"x");
        let count = case.path("count");
        case.script(
            "t.sh",
            &format!(r#"echo run >> {}; sleep 30"#, count.display()),
        );
        let started = std::time::Instant::now();
        let out = case.run(&["reduce", "-j", jobs, "--timeout", "0.5", "./t.sh", "in.txt"]);
        let took = started.elapsed();
        assert_eq!(out.status.code(), Some(3), "{}", stderr(&out));
        assert!(stderr(&out).contains("hangs"));
        let runs = std::fs::read_to_string(&count).unwrap().lines().count();
        assert!(runs <= most_runs, "-j {jobs}: {runs} runs");
        // One timeout (0.5 s) and its grace (1 s), not two of them.
        assert!(took.as_secs_f64() < 2.9, "-j {jobs}: {took:?}");
    }
}

/// `--max-tests N` is N test runs in all (the first check and the re-runs included) and gives
/// the same result at every job count.
#[test]
fn max_tests_counts_every_test_and_gives_one_result() {
    let case = Case::new();
    let input: String = (0..100).map(|i| format!("l{i}\n")).collect();
    case.file("in.txt", input.as_bytes());
    let count = case.path("count");
    case.script(
        "t.sh",
        &format!(r#"echo run >> {}; grep -q "^l77$" "$1""#, count.display()),
    );
    let mut results = Vec::new();
    for jobs in ["1", "2", "4"] {
        let _ = std::fs::remove_file(&count);
        let name = format!("out{jobs}");
        let out = case.run(&[
            "reduce",
            "-j",
            jobs,
            "--max-tests",
            "12",
            "./t.sh",
            "in.txt",
            "-o",
            &name,
            "--stats-json",
            "s.json",
        ]);
        assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
        let stats = json(&case.path("s.json"));
        assert!(stats["tests_run"].as_u64().unwrap() <= 12, "{stats}");
        if jobs == "1" {
            let runs = std::fs::read_to_string(&count).unwrap().lines().count();
            assert!(runs <= 12, "{runs} runs with --max-tests 12");
            assert_eq!(runs as u64, stats["tests_run"].as_u64().unwrap());
        }
        results.push(case.read(&name));
    }
    assert!(String::from_utf8_lossy(&results[0]).contains("l77"));
    assert_eq!(results[0], results[1], "-j 2");
    assert_eq!(results[0], results[2], "-j 4");
}

/// What a test prints is never held whole in memory: 64 MB per test, matched by a regex
/// and compared for `--same-output`, keeps myhill's peak memory small.
#[test]
fn output_of_any_size_takes_bounded_memory() {
    let case = Case::new();
    case.file("in.txt", b"xx");
    case.script(
        "t.sh",
        r#"grep -q xx "$1" || exit 1; head -c 64000000 /dev/zero | tr '\0' y; echo; echo MATCH"#,
    );
    for signature in [["--stdout-regex", "MATCH"], ["--same-output", "--quiet"]] {
        let mut args = vec!["reduce", "-j", "1", "./t.sh", "in.txt"];
        args.extend(signature);
        args.extend(["-o", "out"]);
        let child = case.command(&args).stderr(Stdio::piped()).spawn().unwrap();
        let out = child.wait_with_output().unwrap();
        assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
        assert_eq!(case.read("out"), b"xx");
        let peak_kib = peak_rss_kib();
        assert!(peak_kib < 40 * 1024, "{signature:?}: peak {peak_kib} KiB");
    }
}

/// The largest peak resident memory of any child waited for so far (this test's myhill runs
/// and their tests, and the other tests' small runs), in KiB.
fn peak_rss_kib() -> i64 {
    // SAFETY: getrusage fills the struct it is given.
    unsafe {
        let mut usage: libc::rusage = std::mem::zeroed();
        libc::getrusage(libc::RUSAGE_CHILDREN, &mut usage);
        usage.ru_maxrss
    }
}

/// A result of one byte or less means the test accepts almost anything: exit 5 with the
/// reason, the result still written; `--allow-trivial` accepts it.
#[test]
fn a_trivial_result_is_an_error_unless_allowed() {
    let case = Case::new();
    case.file("in.txt", b"anything at all\n");
    case.script("t.sh", "exit 0");
    let out = case.run(&["reduce", "./t.sh", "in.txt", "-o", "out"]);
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(5), "{err}");
    assert!(err.contains("--allow-trivial"), "{err}");
    assert_eq!(case.read("out"), b"");
    let out = case.run(&[
        "reduce",
        "--allow-trivial",
        "./t.sh",
        "in.txt",
        "-o",
        "out2",
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(case.read("out2"), b"");
}

/// A test killed by a signal counts as 128 + the signal for `--expect-exit`, as a shell
/// reports it, so `--expect-exit 139` finds a program that segfaults.
#[test]
fn a_signal_counts_as_128_plus_its_number() {
    let case = Case::new();
    case.file("in.txt", b"ab xy cd");
    case.script("t.sh", r#"grep -q xy "$1" && kill -SEGV $$; exit 1"#);
    let out = case.run(&[
        "reduce",
        "-q",
        "--expect-exit",
        "139",
        "./t.sh",
        "in.txt",
        "-o",
        "out",
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(case.read("out"), b"xy");
}
