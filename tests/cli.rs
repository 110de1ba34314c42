//! `myhill reduce` end to end, with tiny shell tests.

use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

mod common;

use common::{BIN, Case, json, processes_with, stderr};

#[test]
fn reduces_in_place_keeping_the_original_and_honouring_the_contract() {
    let case = Case::new();
    case.file("input.txt", b"aaa\nb x b\nccc\n");
    // Interesting iff: the path argument names input.txt in the working directory, stdin
    // carries the same bytes, and the file still holds an x.
    case.script(
        "test.sh",
        r#"[ "$(basename "$1")" = input.txt ] || exit 10
[ "$(dirname "$1")" = "$(pwd)" ] || exit 11
cmp -s - "$1" || exit 12
grep -q x "$1""#,
    );
    let out = case.run(&[
        "reduce",
        "--allow-trivial",
        "./test.sh",
        "input.txt",
        "--stats-json",
        "stats.json",
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(case.read("input.txt"), b"x");
    assert_eq!(case.read("input.txt.orig"), b"aaa\nb x b\nccc\n");
    assert!(
        case.temp_leftovers().is_empty(),
        "{:?}",
        case.temp_leftovers()
    );
    let stats = json(&case.path("stats.json"));
    for key in [
        "tests_run",
        "cache_hits",
        "timeouts",
        "initial_bytes",
        "final_bytes",
        "wall_seconds",
        "passes",
    ] {
        assert!(stats.get(key).is_some(), "stats JSON lacks {key}: {stats}");
    }
    assert_eq!(stats["initial_bytes"], 14);
    assert_eq!(stats["final_bytes"], 1);
    assert!(stats["tests_run"].as_u64().unwrap() >= 3);
    assert!(
        stats["passes"]
            .as_array()
            .unwrap()
            .iter()
            .any(|p| p["name"] == "split/lines")
    );
    assert!(stderr(&out).contains("tests run"), "{}", stderr(&out));
}

#[test]
fn an_existing_backup_is_never_overwritten_and_output_leaves_the_input_alone() {
    let case = Case::new();
    case.file("in.c", b"keep x here");
    case.file("in.c.orig", b"an older backup");
    case.script("t.sh", r#"grep -q x "$1""#);
    let out = case.run(&["reduce", "--quiet", "--allow-trivial", "./t.sh", "in.c"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(case.read("in.c.orig"), b"an older backup");
    assert_eq!(case.read("in.c.orig.1"), b"keep x here");

    case.file("other.c", b"also x");
    let out = case.run(&[
        "reduce",
        "-q",
        "--allow-trivial",
        "./t.sh",
        "other.c",
        "-o",
        "small.c",
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(case.read("other.c"), b"also x");
    assert_eq!(case.read("small.c"), b"x");
    assert!(!case.path("other.c.orig").exists());
}

#[test]
fn input_modes_narrow_how_the_candidate_arrives() {
    let case = Case::new();
    case.file("in.txt", b"abc x def");
    // stdin only: no argument may be passed.
    case.script("stdin.sh", r#"[ $# -eq 0 ] || exit 5; grep -q x"#);
    let out = case.run(&[
        "reduce",
        "-q",
        "--allow-trivial",
        "--input-mode",
        "stdin",
        "./stdin.sh",
        "in.txt",
        "-o",
        "a",
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(case.read("a"), b"x");
    // file only: read it from the working directory by name; stdin is empty.
    case.script(
        "file.sh",
        r#"[ $# -eq 0 ] || exit 5; [ -z "$(cat)" ] || exit 6; grep -q x in.txt"#,
    );
    let out = case.run(&[
        "reduce",
        "-q",
        "--allow-trivial",
        "--input-mode",
        "file",
        "./file.sh",
        "in.txt",
        "-o",
        "b",
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(case.read("b"), b"x");
}

#[test]
fn files_the_test_creates_never_leak_into_the_result() {
    let case = Case::new();
    case.file("in.txt", b"1 x 2");
    case.script(
        "t.sh",
        r#"echo junk > "$1.extra"; echo more >> "$1"; grep -q x "$1""#,
    );
    let out = case.run(&[
        "reduce",
        "-q",
        "--allow-trivial",
        "./t.sh",
        "in.txt",
        "-o",
        "out.txt",
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(case.read("out.txt"), b"x");
    assert!(case.temp_leftovers().is_empty());
}

#[test]
fn signature_options_define_interesting() {
    let case = Case::new();
    case.file("in.txt", b"aa x bb y cc");
    // Crashes with status 3 when x is present, otherwise exits 1; prints y-lines on stdout.
    case.script("prog.sh", r#"grep -q y "$1" && echo "found y" && echo "warn y" >&2; grep -q x "$1" && exit 3; exit 1"#);
    let out = case.run(&[
        "reduce",
        "-q",
        "--allow-trivial",
        "--expect-exit",
        "3",
        "./prog.sh",
        "in.txt",
        "-o",
        "e",
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(case.read("e"), b"x");
    let out = case.run(&[
        "reduce",
        "-q",
        "--allow-trivial",
        "--stdout-regex",
        "found y",
        "./prog.sh",
        "in.txt",
        "-o",
        "o",
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(case.read("o"), b"y");
    let out = case.run(&[
        "reduce",
        "-q",
        "--expect-exit",
        "3",
        "--stderr-regex",
        "warn",
        "./prog.sh",
        "in.txt",
        "-o",
        "b",
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let both = case.read("b");
    assert!(both == b"xy", "{both:?}");
    // Same output: exit 3 with "found y" on stdout and "warn y" on stderr, exactly.
    let out = case.run(&[
        "reduce",
        "-q",
        "--same-output",
        "./prog.sh",
        "in.txt",
        "-o",
        "s",
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(case.read("s"), b"xy");
}

#[test]
fn same_output_ignores_the_changing_temp_path() {
    let case = Case::new();
    case.file("in.txt", b"abc x def");
    case.script("t.sh", r#"echo "checking $1"; grep -q x "$1""#);
    let out = case.run(&[
        "reduce",
        "-q",
        "--allow-trivial",
        "--same-output",
        "./t.sh",
        "in.txt",
        "-o",
        "s",
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(case.read("s"), b"x");
}

#[test]
fn timeouts_are_counted_apart_and_never_accepted() {
    let case = Case::new();
    case.file("in.txt", b"x y zzzz");
    // Hangs once y is gone; interesting iff x is there.
    case.script("t.sh", r#"grep -q y "$1" || sleep 5; grep -q x "$1""#);
    let start = Instant::now();
    let out = case.run(&[
        "reduce",
        "-q",
        "--timeout",
        "0.3",
        "--units",
        "bytes",
        "--strategy",
        "ddmin",
        "./t.sh",
        "in.txt",
        "-o",
        "out",
        "--stats-json",
        "s.json",
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let result = case.read("out");
    assert!(
        result.contains(&b'x') && result.contains(&b'y'),
        "{result:?}"
    );
    let stats = json(&case.path("s.json"));
    assert!(stats["timeouts"].as_u64().unwrap() > 0, "{stats}");
    assert!(start.elapsed() < Duration::from_secs(30));
    assert!(case.temp_leftovers().is_empty());
}

#[test]
fn timeout_is_interesting_reduces_a_hang() {
    let case = Case::new();
    case.file("in.txt", b"aa h bb");
    case.script("t.sh", r#"grep -q h "$1" && sleep 5; exit 1"#);
    let out = case.run(&[
        "reduce",
        "-q",
        "--timeout",
        "0.3",
        "--timeout-is-interesting",
        "--allow-trivial",
        "--units",
        "bytes",
        "--strategy",
        "ddmin",
        "./t.sh",
        "in.txt",
        "-o",
        "out",
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(case.read("out"), b"h");
}

#[test]
fn no_process_of_a_test_survives() {
    let case = Case::new();
    case.file("in.txt", b"a x b y");
    // Every test leaves a background sleeper; hanging tests are killed by the timeout.
    let marker = format!("987.{}", std::process::id());
    case.script(
        "t.sh",
        &format!(r#"sleep {marker} & grep -q y "$1" || sleep {marker}; grep -q x "$1""#),
    );
    let out = case.run(&[
        "reduce",
        "-q",
        "--timeout",
        "0.5",
        "--units",
        "bytes",
        "./t.sh",
        "in.txt",
        "-o",
        "out",
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    std::thread::sleep(Duration::from_millis(200));
    assert_eq!(processes_with(&marker), 0, "a test's process outlived it");
}

/// Starts a reduction of 200 lines whose test sleeps 0.3 s (the sleep's argument, `marker`,
/// finds leftover test processes), and waits until tests are running. Returns the input too.
fn slow_reduction(case: &Case, marker: &str) -> (std::process::Child, String) {
    let input: String = (0..200).map(|i| format!("line {i}\n")).collect();
    case.file("in.txt", input.as_bytes());
    case.script(
        "t.sh",
        &format!(r#"sleep {marker}; grep -q "^line 50$" "$1""#),
    );
    let child = case
        .command(&[
            "reduce",
            "-j",
            "2",
            "./t.sh",
            "in.txt",
            "--stats-json",
            "s.json",
        ])
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    std::thread::sleep(Duration::from_millis(1500));
    (child, input)
}

#[test]
fn sigint_mid_run_saves_an_interesting_result_and_exits_130() {
    let case = Case::new();
    let marker = format!("0.3{}", std::process::id());
    let (mut child, input) = slow_reduction(&case, &marker);
    let sent = Instant::now();
    unsafe {
        libc::kill(child.id() as i32, libc::SIGINT);
    }
    let status = child.wait().unwrap();
    let took = sent.elapsed();
    assert_eq!(status.code(), Some(130));
    assert!(took < Duration::from_secs(1), "took {took:?} to stop");
    let result = case.read("in.txt");
    assert!(
        String::from_utf8_lossy(&result)
            .lines()
            .any(|l| l == "line 50")
    );
    assert_eq!(case.read("in.txt.orig"), input.as_bytes());
    assert!(
        case.temp_leftovers().is_empty(),
        "{:?}",
        case.temp_leftovers()
    );
    std::thread::sleep(Duration::from_millis(100));
    assert_eq!(processes_with(&marker), 0);
    let stats = json(&case.path("s.json"));
    assert_eq!(stats["exit_code"], 130);
}

/// `timeout` signals the process and then its group: two SIGTERMs must still stop cleanly,
/// with the tests killed and the figures written.
#[test]
fn two_sigterms_still_stop_cleanly() {
    let case = Case::new();
    let marker = format!("0.3{}", std::process::id() + 1);
    let (mut child, _) = slow_reduction(&case, &marker);
    unsafe {
        libc::kill(child.id() as i32, libc::SIGTERM);
        libc::kill(child.id() as i32, libc::SIGTERM);
    }
    let status = child.wait().unwrap();
    assert_eq!(status.code(), Some(130));
    let stats = json(&case.path("s.json"));
    assert_eq!(stats["exit_code"], 130);
    std::thread::sleep(Duration::from_millis(100));
    assert_eq!(processes_with(&marker), 0);
}

#[test]
fn bad_inputs_get_a_clear_message_and_exit_2() {
    let case = Case::new();
    case.file("in.txt", b"x");
    case.script("t.sh", r#"grep -q x "$1""#);
    case.file("noexec.sh", b"#!/bin/sh\nexit 0\n");
    std::fs::create_dir(case.path("adir")).unwrap();
    let cases: &[(&[&str], &str)] = &[
        (&["reduce", "./t.sh", "missing.txt"], "does not exist"),
        (&["reduce", "./t.sh", "adir"], "is a directory"),
        (&["reduce", "./noexec.sh", "in.txt"], "chmod +x"),
        (&["reduce", "./nothere.sh", "in.txt"], "does not exist"),
        (
            &["reduce", "no-such-program-xyz", "in.txt"],
            "not found on PATH",
        ),
        (
            &["reduce", "--strategy", "bogus", "./t.sh", "in.txt"],
            "unknown strategy",
        ),
        (
            &["reduce", "--stdout-regex", "(", "./t.sh", "in.txt"],
            "not a valid regular expression",
        ),
        (&["reduce", "'./t.sh", "in.txt"], "quotes"),
    ];
    for (args, needle) in cases {
        let out = case.run(args);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {}", stderr(&out));
        assert!(stderr(&out).contains(needle), "{args:?}: {}", stderr(&out));
        assert!(!stderr(&out).contains("panicked"));
    }
    assert_eq!(case.read("in.txt"), b"x");
    assert!(!case.path("in.txt.orig").exists());
}

#[test]
fn an_uninteresting_original_is_explained_with_exit_3() {
    let case = Case::new();
    case.file("in.txt", b"hello");
    case.script(
        "t.sh",
        r#"echo "looking at $1"; echo "no x here" >&2; grep -q x "$1""#,
    );
    let out = case.run(&["reduce", "./t.sh", "in.txt"]);
    assert_eq!(out.status.code(), Some(3), "{}", stderr(&out));
    let msg = stderr(&out);
    for needle in [
        "not interesting",
        "exit status 1",
        "no x here",
        "looking at",
        "Reproduce it",
        "mktemp -d",
    ] {
        assert!(msg.contains(needle), "missing {needle:?} in {msg}");
    }
    assert_eq!(case.read("in.txt"), b"hello");
    assert!(!case.path("in.txt.orig").exists());

    // A test that only works next to the input is called out.
    case.file("needed.dat", b"");
    case.script("local.sh", r#"[ -e needed.dat ]"#);
    let out = case.run(&["reduce", "./local.sh", "in.txt"]);
    assert_eq!(out.status.code(), Some(3));
    assert!(
        stderr(&out).contains("working directory"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn a_hanging_original_and_a_flaky_test_are_refused() {
    let case = Case::new();
    case.file("in.txt", b"x");
    case.script("hang.sh", "sleep 5");
    let out = case.run(&["reduce", "--timeout", "0.3", "./hang.sh", "in.txt"]);
    assert_eq!(out.status.code(), Some(3), "{}", stderr(&out));
    assert!(stderr(&out).contains("hangs"), "{}", stderr(&out));

    // The first check's two runs go at once with several jobs: the counter is kept under a lock.
    let counter = case.path("count");
    case.script(
        "flaky.sh",
        &format!(
            r#"exec 9>>{c}.lock; flock 9; n=$(cat {c} 2>/dev/null || echo 0); echo $((n+1)) > {c}; [ $((n % 2)) -eq 0 ]"#,
            c = counter.display()
        ),
    );
    let out = case.run(&["reduce", "./flaky.sh", "in.txt"]);
    assert_eq!(out.status.code(), Some(4), "{}", stderr(&out));
    assert!(stderr(&out).contains("flaky"), "{}", stderr(&out));
    assert!(stderr(&out).contains("--allow-flaky"));
    assert_eq!(case.read("in.txt"), b"x");
}

#[test]
fn allow_flaky_reconfirms_and_still_finishes() {
    let case = Case::new();
    case.file("in.txt", b"ab x cd");
    let counter = case.path("count");
    // Flaky: every third run says no, whatever the input.
    case.script(
        "flaky.sh",
        &format!(r#"exec 9>>{c}.lock; flock 9; n=$(cat {c} 2>/dev/null || echo 0); echo $((n+1)) > {c}; [ $((n % 3)) -eq 2 ] && exit 1; grep -q x "$1""#, c = counter.display()),
    );
    let out = case.run(&[
        "reduce",
        "-q",
        "-j",
        "1",
        "--first-runs",
        "3",
        "--allow-flaky",
        "--allow-trivial",
        "./flaky.sh",
        "in.txt",
        "-o",
        "out",
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(case.read("out").contains(&b'x'));
}

#[test]
fn the_answer_does_not_depend_on_jobs() {
    let case = Case::new();
    let input: String = (0..24)
        .map(|i| format!("w{i} {{{}}}\n", i * 7 % 13))
        .collect();
    case.file("in.txt", input.as_bytes());
    case.script(
        "t.sh",
        r#"grep -q "^w17 " "$1" && grep -q "w4" "$1" && grep -q "w9 " "$1""#,
    );
    for strategy in [
        "default",
        "classic",
        "ddmin",
        "probdd",
        "split",
        "hdd",
        "hdd-probdd",
        "perses",
        "tpdd",
        "dfa",
        "dfa-pass",
    ] {
        let mut results = Vec::new();
        for jobs in ["1", "2", "4"] {
            let out_name = format!("out-{strategy}-{jobs}");
            let out = case.run(&[
                "reduce",
                "-q",
                "-j",
                jobs,
                "--strategy",
                strategy,
                "./t.sh",
                "in.txt",
                "-o",
                &out_name,
            ]);
            assert_eq!(out.status.code(), Some(0), "{strategy}: {}", stderr(&out));
            results.push(case.read(&out_name));
        }
        assert_eq!(results[0], results[1], "{strategy} with 2 jobs");
        assert_eq!(results[0], results[2], "{strategy} with 4 jobs");
    }
}

#[test]
fn max_tests_stops_early_with_the_best_so_far() {
    let case = Case::new();
    let input: String = (0..100).map(|i| format!("l{i}\n")).collect();
    case.file("in.txt", input.as_bytes());
    case.script("t.sh", r#"grep -q "^l77$" "$1""#);
    let out = case.run(&[
        "reduce",
        "-j",
        "1",
        "--max-tests",
        "6",
        "./t.sh",
        "in.txt",
        "-o",
        "out",
        "--stats-json",
        "s.json",
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(stderr(&out).contains("--max-tests"), "{}", stderr(&out));
    let stats = json(&case.path("s.json"));
    assert!(stats["tests_run"].as_u64().unwrap() <= 6, "{stats}");
    assert!(String::from_utf8_lossy(&case.read("out")).contains("l77"));
}

#[test]
fn a_result_that_does_not_pass_again_is_replaced_by_one_that_does() {
    let case = Case::new();
    case.file("in.txt", b"ab x cd");
    let marker = case.path("seen");
    // "x" alone passes only the first time it is tested, like a reduced program whose
    // undefined behaviour happens to print the right thing once.
    case.script(
        "t.sh",
        &format!(
            r#"grep -q x "$1" || exit 1
[ "$(cat "$1")" = x ] || exit 0
[ -e {m} ] && exit 1
touch {m}"#,
            m = marker.display()
        ),
    );
    let out = case.run(&[
        "reduce",
        "-j",
        "1",
        "./t.sh",
        "in.txt",
        "-o",
        "out",
        "--stats-json",
        "s.json",
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let result = case.read("out");
    assert_ne!(result, b"x");
    assert!(result.contains(&b'x'));
    assert!(
        stderr(&out).contains("flaky on reduced inputs"),
        "{}",
        stderr(&out)
    );
    let stats = json(&case.path("s.json"));
    assert_eq!(stats["final_bytes"], result.len());
    // Caught between passes, before anything was built on the lucky result.
    assert_eq!(stats["rollbacks"], 1);
    assert_eq!(stats["confirmed"], true);
}

#[test]
fn help_reads_well() {
    let out = Command::new(BIN).arg("--help").output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("reduce"), "{text}");
    let out = Command::new(BIN)
        .args(["reduce", "--help"])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    for needle in [
        "--expect-exit",
        "--same-output",
        "--strategy",
        "probdd",
        "Exit codes",
        "--stats-json",
    ] {
        assert!(text.contains(needle), "reduce --help lacks {needle}");
    }
}

/// The names of the passes a stats file lists, in order.
fn pass_names(stats: &serde_json::Value) -> Vec<String> {
    stats["passes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["name"].as_str().unwrap().to_string())
        .collect()
}

#[test]
fn passes_run_exactly_the_named_passes_in_order_and_skip_pass_drops_one() {
    let case = Case::new();
    case.file("in.txt", b"aaa\n{ b x c }\nddd\n");
    case.script("t.sh", r#"grep -q x "$1""#);
    let out = case.run(&[
        "reduce",
        "--allow-trivial",
        "--passes",
        "squeeze/whitespace,split/tokens,hollow",
        "./t.sh",
        "in.txt",
        "-o",
        "out",
        "--stats-json",
        "s.json",
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let names = pass_names(&json(&case.path("s.json")));
    assert_eq!(names, ["squeeze/whitespace", "split/tokens", "hollow"]);

    let out = case.run(&[
        "reduce",
        "--allow-trivial",
        "--skip-pass",
        "tpdd/tree,hollow",
        "./t.sh",
        "in.txt",
        "-o",
        "out2",
        "--stats-json",
        "s2.json",
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let names = pass_names(&json(&case.path("s2.json")));
    let has = |n: &str| names.iter().any(|m| m == n);
    assert!(has("hoist") && !has("tpdd/tree") && !has("hollow"));

    for bad in [&["--passes", "nope"][..], &["--skip-pass", "nope"]] {
        let mut args = vec!["reduce"];
        args.extend(bad);
        args.extend(["./t.sh", "in.txt"]);
        let out = case.run(&args);
        assert_eq!(out.status.code(), Some(2), "{bad:?}: {}", stderr(&out));
        assert!(stderr(&out).contains("nope"), "{}", stderr(&out));
    }
}

#[test]
fn list_passes_names_and_describes_every_pass() {
    let out = Command::new(BIN).arg("--list-passes").output().unwrap();
    assert_eq!(out.status.code(), Some(0));
    let text = String::from_utf8_lossy(&out.stdout);
    for name in [
        "length-aware",
        "tpdd/tree",
        "hollow",
        "hoist",
        "split/lines",
        "siblings",
        "intervals/tokens",
        "expressions",
        "integers",
        "literals",
        "lower/bytes",
        "dfa/lines",
    ] {
        let line = text
            .lines()
            .find(|l| l.split_whitespace().next() == Some(name))
            .unwrap_or_else(|| panic!("{name} missing from\n{text}"));
        assert!(
            line.split_whitespace().count() > 2,
            "{name} has no description"
        );
    }
    let words = text.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(
        words.contains("default ")
            && words
                .contains("length-aware, chunks/bodies, chunks/dead, chunks/forms, chunks/members, chunks/dead, strip/comments")
    );
}
