//! `myhill check` and `myhill compare` end to end.

use std::os::unix::fs::PermissionsExt;
use std::process::{Command, Output};

const BIN: &str = env!("CARGO_BIN_EXE_myhill");

fn case(input: &[u8], script: &str) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("in.txt"), input).unwrap();
    let t = dir.path().join("t.sh");
    std::fs::write(&t, format!("#!/bin/sh\n{script}\n")).unwrap();
    std::fs::set_permissions(&t, std::fs::Permissions::from_mode(0o755)).unwrap();
    dir
}

fn run(dir: &tempfile::TempDir, args: &[&str]) -> Output {
    Command::new(BIN)
        .args(args)
        .current_dir(dir.path())
        .output()
        .unwrap()
}

fn text(out: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}

/// Interesting iff the file holds an x before a y.
const X_BEFORE_Y: &str = r#"grep -q 'x.*y' "$1""#;

#[test]
fn check_certifies_one_minimal_and_interval_minimal() {
    let dir = case(b"xy", X_BEFORE_Y);
    let out = run(&dir, &["check", "-j", "2", "./t.sh", "in.txt"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    assert!(text(&out).contains("is 1-minimal"));
    let out = run(&dir, &["check", "--interval", "./t.sh", "in.txt"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    assert!(text(&out).contains("is interval-minimal"));
}

#[test]
fn check_names_a_deletion_and_writes_the_smaller_file() {
    // "xay": deleting the a keeps an x before a y.
    let dir = case(b"xay", X_BEFORE_Y);
    let out = run(&dir, &["check", "./t.sh", "in.txt", "-o", "smaller.txt"]);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out));
    assert!(text(&out).contains("deleting units 1..2"), "{}", text(&out));
    assert_eq!(
        std::fs::read(dir.path().join("smaller.txt")).unwrap(),
        b"xy"
    );
}

#[test]
fn check_finds_intervals_single_deletions_miss() {
    // Needs "ab" pairs balanced: deleting one byte breaks it, deleting "ab" does not.
    let dir = case(
        b"xaby",
        r#"grep -q 'x.*y' "$1" && [ "$(tr -cd a < "$1" | wc -c)" = "$(tr -cd b < "$1" | wc -c)" ]"#,
    );
    let out = run(&dir, &["check", "./t.sh", "in.txt"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    let out = run(&dir, &["check", "--interval", "./t.sh", "in.txt"]);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out));
    assert!(text(&out).contains("deleting units 1..3"), "{}", text(&out));
}

#[test]
fn check_reports_identical_deletions_it_did_not_retest() {
    let dir = case(b"xaaay", r#"grep -q 'xaaay' "$1""#);
    let out = run(&dir, &["check", "./t.sh", "in.txt"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    assert!(
        text(&out).contains("3 tests of 3 distinct deletions; 2 identical deletions not retested"),
        "{}",
        text(&out)
    );
}

#[test]
fn check_cannot_check_an_uninteresting_file() {
    let dir = case(b"yx", X_BEFORE_Y);
    let out = run(&dir, &["check", "./t.sh", "in.txt"]);
    assert_eq!(out.status.code(), Some(2), "{}", text(&out));
    assert!(text(&out).contains("could not check"));
}

#[test]
fn compare_counts_equal_separate_reduce_runs() {
    let input: String = (0..40).map(|i| format!("line {i}\n")).collect();
    let dir = case(
        input.as_bytes(),
        r#"grep -q '^line 7$' "$1" && grep -q '^line 31$' "$1""#,
    );
    let out = run(
        &dir,
        &[
            "compare",
            "-q",
            "-j",
            "1",
            "--json",
            "--strategies",
            "ddmin,split",
            "--plot",
            "p.svg",
            "./t.sh",
            "in.txt",
        ],
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    let rows: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let svg = std::fs::read_to_string(dir.path().join("p.svg")).unwrap();
    assert!(svg.contains("<polyline") && svg.contains("ddmin") && svg.contains("split"));
    for row in rows.as_array().unwrap() {
        let strategy = row["strategy"].as_str().unwrap();
        let out = run(
            &dir,
            &[
                "reduce",
                "-q",
                "-j",
                "1",
                "--strategy",
                strategy,
                "./t.sh",
                "in.txt",
                "-o",
                "out.txt",
                "--stats-json",
                "s.json",
            ],
        );
        assert_eq!(out.status.code(), Some(0), "{}", text(&out));
        let stats: serde_json::Value =
            serde_json::from_slice(&std::fs::read(dir.path().join("s.json")).unwrap()).unwrap();
        assert_eq!(row["tests_run"], stats["tests_run"], "{strategy}");
        assert_eq!(row["cache_hits"], stats["cache_hits"], "{strategy}");
        assert_eq!(row["final_bytes"], stats["final_bytes"], "{strategy}");
        assert_eq!(row["one_minimal"], true, "{strategy}");
    }
    let out = run(
        &dir,
        &[
            "compare",
            "-q",
            "-j",
            "1",
            "--strategies",
            "ddmin",
            "./t.sh",
            "in.txt",
        ],
    );
    assert!(text(&out).contains("1-minimal"), "{}", text(&out));
}
