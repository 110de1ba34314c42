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
    std::fs::write(marked.join(myhill::MARKER), b"").unwrap();
    std::fs::write(marked.join("keep.txt"), b"mine").unwrap();
    let both = root.join("both");
    std::fs::create_dir(&both).unwrap();
    std::fs::write(both.join(myhill::MARKER), b"").unwrap();
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
