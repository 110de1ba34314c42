//! `myhill bisect` end to end, with tiny shell tests.

use std::os::unix::fs::PermissionsExt;
use std::process::{Command, Output};

const BIN: &str = env!("CARGO_BIN_EXE_myhill");

fn setup(items: usize, script: &str) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let list: String = (0..items).map(|i| format!("v{i}\n")).collect();
    std::fs::write(dir.path().join("items.txt"), list).unwrap();
    let test = dir.path().join("t.sh");
    std::fs::write(&test, format!("#!/bin/sh\nn=${{1#v}}\n{script}\n")).unwrap();
    std::fs::set_permissions(&test, std::fs::Permissions::from_mode(0o755)).unwrap();
    dir
}

fn bisect(dir: &tempfile::TempDir, extra: &[&str]) -> Output {
    Command::new(BIN)
        .arg("bisect")
        .args(extra)
        .current_dir(dir.path())
        .output()
        .unwrap()
}

fn runs(out: &Output) -> usize {
    String::from_utf8_lossy(&out.stderr)
        .lines()
        .filter(|l| l.contains(": item "))
        .count()
}

#[test]
fn sixty_four_items_with_the_change_at_37() {
    let dir = setup(64, "[ $n -lt 37 ]");
    let out = bisect(&dir, &["items.txt", "./t.sh"]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(stdout.contains("first bad: v37"), "{stdout}");
    assert!(stdout.contains("last good: v36"), "{stdout}");
    assert!(runs(&out) <= 2 + 6, "{} runs", runs(&out));
}

#[test]
fn untestable_items_are_skipped_and_a_run_of_them_gives_a_range() {
    let dir = setup(
        64,
        "[ $n -ge 30 ] && [ $n -le 33 ] && exit 125\n[ $n -lt 37 ]",
    );
    let out = bisect(&dir, &["items.txt", "./t.sh"]);
    assert!(String::from_utf8_lossy(&out.stdout).contains("first bad: v37"));

    let dir = setup(
        64,
        "[ $n -ge 35 ] && [ $n -le 38 ] && exit 125\n[ $n -lt 37 ]",
    );
    let out = bisect(&dir, &["items.txt", "./t.sh"]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(0));
    assert!(stdout.contains("last good: v34"), "{stdout}");
    assert!(
        stdout.contains("one of v35, v36, v37, v38, v39"),
        "{stdout}"
    );
}

#[test]
fn signature_options_define_bad() {
    let dir = setup(20, "[ $n -ge 11 ] && echo 'assertion failed' >&2; exit 1");
    let out = bisect(
        &dir,
        &["--stderr-regex", "assertion", "items.txt", "./t.sh"],
    );
    assert!(
        String::from_utf8_lossy(&out.stdout).contains("first bad: v11"),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn a_flaky_test_is_caught_with_repeat() {
    let dir = setup(
        16,
        "c=$(cat count 2>/dev/null || echo 0); echo $((c+1)) > count\n[ $n -lt 9 ] && [ $((c % 3)) -ne 1 ]",
    );
    let out = bisect(&dir, &["--repeat", "3", "items.txt", "./t.sh"]);
    assert_eq!(
        out.status.code(),
        Some(4),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(String::from_utf8_lossy(&out.stderr).contains("flaky"));
    std::fs::remove_file(dir.path().join("count")).unwrap();
    let out = bisect(
        &dir,
        &["--repeat", "3", "--allow-flaky", "items.txt", "./t.sh"],
    );
    assert!(
        String::from_utf8_lossy(&out.stdout).contains("first bad: v9"),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn bad_inputs_are_refused_clearly() {
    let dir = setup(8, "[ $n -lt 3 ]");
    let out = bisect(&dir, &["missing.txt", "./t.sh"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("cannot read the items file"));
    std::fs::write(dir.path().join("one.txt"), "v1\n").unwrap();
    let out = bisect(&dir, &["one.txt", "./t.sh"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("at least two items"));
    // Reversed order: the first item is bad.
    let list: String = (0..8).rev().map(|i| format!("v{i}\n")).collect();
    std::fs::write(dir.path().join("rev.txt"), list).unwrap();
    let out = bisect(&dir, &["rev.txt", "./t.sh"]);
    assert_eq!(out.status.code(), Some(3));
    assert!(String::from_utf8_lossy(&out.stderr).contains("must be good"));
}

#[test]
fn git_ranges_are_bisected() {
    let dir = tempfile::tempdir().unwrap();
    let git = |args: &[&str]| {
        let ok = Command::new("git")
            .args([
                "-c",
                "user.name=t",
                "-c",
                "user.email=t@t",
                "-c",
                "commit.gpgsign=false",
            ])
            .args(args)
            .current_dir(dir.path())
            .output()
            .unwrap();
        assert!(
            ok.status.success(),
            "git {args:?}: {}",
            String::from_utf8_lossy(&ok.stderr)
        );
        String::from_utf8_lossy(&ok.stdout).trim().to_string()
    };
    git(&["init", "-q"]);
    let mut commits = Vec::new();
    for i in 0..10 {
        std::fs::write(
            dir.path().join("value"),
            format!("{i} {}\n", if i >= 6 { "broken" } else { "fine" }),
        )
        .unwrap();
        git(&["add", "value"]);
        git(&["commit", "-q", "-m", &format!("c{i}")]);
        commits.push(git(&["rev-parse", "HEAD"]));
    }
    let test = dir.path().join("t.sh");
    std::fs::write(&test, "#!/bin/sh\ngit show \"$1:value\" | grep -q fine\n").unwrap();
    std::fs::set_permissions(&test, std::fs::Permissions::from_mode(0o755)).unwrap();
    let out = Command::new(BIN)
        .args(["bisect", "--git", &commits[0], &commits[9], "./t.sh"])
        .current_dir(dir.path())
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        stdout.contains(&format!("first bad: {}", commits[6])),
        "{stdout}{}",
        String::from_utf8_lossy(&out.stderr)
    );
}
