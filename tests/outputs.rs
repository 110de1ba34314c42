//! Where the result goes: never over the test, through a link to its target, never over a
//! device, and a failed write said at once and tried again.

mod common;

use common::{Case, stderr};

/// The result as text without its last newline (the reducer may drop it).
fn trimmed(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).trim_end().to_string()
}

fn lines_case() -> Case {
    let case = Case::new();
    let input: String = (1..=200).map(|i| format!("line {i}\n")).collect();
    case.file("in.txt", input.as_bytes());
    case.script("t.sh", "grep -q '^line 37$' \"$1\"");
    case
}

#[test]
fn output_naming_the_test_is_refused_before_any_test() {
    let case = lines_case();
    let script = case.read("t.sh");
    let out = case.run(&["reduce", "-o", "t.sh", "./t.sh", "in.txt"]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(stderr(&out).contains("names the test"), "{}", stderr(&out));
    assert_eq!(case.read("t.sh"), script);
    // A file the test names is kept too.
    case.file("ref.txt", b"reference\n");
    case.script("t2.sh", "grep -q '^line 37$' \"$1\"");
    let out = case.run(&["reduce", "-o", "ref.txt", "./t2.sh ref.txt", "in.txt"]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert_eq!(case.read("ref.txt"), b"reference\n");
}

#[test]
fn output_through_a_link_writes_its_target() {
    let case = lines_case();
    case.file("target.txt", b"old\n");
    std::os::unix::fs::symlink("target.txt", case.path("link.txt")).unwrap();
    let out = case.run(&["reduce", "-j2", "-o", "link.txt", "./t.sh", "in.txt"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let meta = std::fs::symlink_metadata(case.path("link.txt")).unwrap();
    assert!(meta.file_type().is_symlink(), "the link was replaced");
    assert_eq!(trimmed(&case.read("target.txt")), "line 37");
    // In place through a link: the link stays, its target is reduced, the original kept.
    let input: String = (1..=200).map(|i| format!("line {i}\n")).collect();
    case.file("real.txt", input.as_bytes());
    std::os::unix::fs::symlink("real.txt", case.path("via.txt")).unwrap();
    let out = case.run(&["reduce", "-j2", "./t.sh", "via.txt"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(
        std::fs::symlink_metadata(case.path("via.txt"))
            .unwrap()
            .file_type()
            .is_symlink()
    );
    assert_eq!(trimmed(&case.read("real.txt")), "line 37");
    assert_eq!(case.read("via.txt.orig"), input.as_bytes());
}

#[test]
fn output_that_is_not_a_regular_file_is_refused() {
    let case = lines_case();
    // A link to this process's stdout (as /dev/stdout is): an atomic rename would replace it.
    std::os::unix::fs::symlink("/proc/self/fd/1", case.path("stdout-link")).unwrap();
    let sink = std::fs::File::create(case.path("sink.txt")).unwrap();
    let out = case
        .command(&["reduce", "-o", "stdout-link", "./t.sh", "in.txt"])
        .stdout(sink)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(stderr(&out).contains("regular file"), "{}", stderr(&out));
    assert!(
        std::fs::symlink_metadata(case.path("stdout-link"))
            .unwrap()
            .file_type()
            .is_symlink()
    );
    let out = case.run(&["reduce", "-o", "/dev/null", "./t.sh", "in.txt"]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
}

#[test]
fn a_failed_write_of_the_best_is_said_at_once_and_tried_again() {
    let case = lines_case();
    std::fs::create_dir(case.path("sub")).unwrap();
    let calls = case.path("calls");
    let sub = case.path("sub");
    // The output's directory vanishes after the 4th test and comes back at the 9th.
    case.script(
        "t.sh",
        &format!(
            "echo x >> {calls}\nn=$(wc -l < {calls})\n[ \"$n\" -eq 4 ] && rm -rf {sub}\n\
             [ \"$n\" -eq 9 ] && mkdir -p {sub}\ngrep -q '^line 37$' \"$1\"",
            calls = calls.display(),
            sub = sub.display()
        ),
    );
    let out = case.run(&["reduce", "-j1", "-o", "sub/out.txt", "./t.sh", "in.txt"]);
    let text = stderr(&out);
    assert!(out.status.success(), "{text}");
    let warned = text.find("warning: cannot write").expect(&text);
    let saved = text.find("saved again").expect(&text);
    let summary = text.find("result written to").expect(&text);
    assert!(warned < saved && saved < summary, "{text}");
    // Said once, not at every failed improvement.
    assert_eq!(text.matches("warning: cannot write").count(), 1, "{text}");
    assert_eq!(trimmed(&case.read("sub/out.txt")), "line 37");
}

#[test]
fn a_temporary_left_by_a_killed_run_is_removed_and_nothing_else() {
    let case = lines_case();
    // A writer killed mid-write (no such process: pids stay below 2^22), the user's own file
    // of a similar name, and a temporary of a process that is alive (this test).
    let stale = ".myhill-999999999-Ab12Cd.tmp";
    let users = ".myhill-notes.tmp";
    let alive = format!(".myhill-{}-Xy34Zw.tmp", std::process::id());
    for name in [stale, users, alive.as_str()] {
        case.file(name, b"partial\n");
    }
    let out = case.run(&["reduce", "-o", "small.txt", "./t.sh", "in.txt"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(
        !case.path(stale).exists(),
        "the dead writer's temporary is left"
    );
    assert_eq!(case.read(users), b"partial\n");
    assert_eq!(case.read(&alive), b"partial\n");
    assert_eq!(trimmed(&case.read("small.txt")), "line 37");
}
