//! Reducing a directory: the tree is kept whole (links, empty directories, modes), the original
//! stays as DIR.orig, `-o` may not land in DIR, Ctrl-C keeps the best tree, `--jobs` does
//! not change the result, and a file's passes are re-run and rolled back as the whole
//! input's are.

mod common;

use common::{Case, json, line_count, signal, stderr, wait_for};
use std::os::unix::fs::PermissionsExt;
use std::path::Path;
use std::process::Stdio;

/// Every path under `root` with what it is: `d` a directory, `l -> target` a link, or the
/// file's mode and content.
fn listing(root: &Path) -> Vec<String> {
    fn walk(root: &Path, rel: &Path, out: &mut Vec<String>) {
        let mut names: Vec<_> = std::fs::read_dir(root.join(rel))
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        names.sort();
        for name in names {
            let rel = rel.join(&name);
            let path = root.join(&rel);
            let meta = std::fs::symlink_metadata(&path).unwrap();
            let shown = rel.display();
            if meta.is_dir() {
                out.push(format!("{shown}/"));
                walk(root, &rel, out);
            } else if meta.file_type().is_symlink() {
                out.push(format!(
                    "{shown} -> {}",
                    std::fs::read_link(&path).unwrap().display()
                ));
            } else {
                let content = String::from_utf8_lossy(&std::fs::read(&path).unwrap()).into_owned();
                out.push(format!(
                    "{shown} {:o} {content:?}",
                    meta.permissions().mode() & 0o777
                ));
            }
        }
    }
    let mut out = Vec::new();
    walk(root, Path::new(""), &mut out);
    out
}

/// A project: a script that needs `lib/needed.txt` to hold "KEY", a link and an empty
/// directory the test checks for, and files nobody needs.
fn project(case: &Case) {
    let dir = case.path("proj");
    std::fs::create_dir_all(dir.join("lib/deep")).unwrap();
    std::fs::create_dir_all(dir.join("docs")).unwrap();
    std::fs::create_dir_all(dir.join("cache")).unwrap();
    std::fs::write(
        dir.join("run.sh"),
        "#!/bin/sh\ngrep -q KEY lib/needed.txt\n",
    )
    .unwrap();
    std::fs::set_permissions(dir.join("run.sh"), std::fs::Permissions::from_mode(0o755)).unwrap();
    std::fs::write(
        dir.join("lib/needed.txt"),
        "first line\nthe KEY is here\nlast line\n",
    )
    .unwrap();
    std::fs::write(dir.join("lib/deep/unused.txt"), "x".repeat(300)).unwrap();
    std::fs::write(dir.join("docs/README"), "words ".repeat(50)).unwrap();
    std::os::unix::fs::symlink("lib/needed.txt", dir.join("link")).unwrap();
    // The test: in the candidate (its working directory, also its last argument), the script
    // must pass, the link must point where it did, and the empty directory must be there.
    case.script(
        "t.sh",
        r#"[ "$(pwd)" = "$(cd "$1" && pwd)" ] || exit 3
touch made-by-the-test
[ -d cache ] && [ -z "$(ls -A cache)" ] || exit 1
[ "$(readlink link)" = lib/needed.txt ] || exit 1
[ -x run.sh ] && grep -q KEY lib/needed.txt"#,
    );
}

#[test]
fn a_tree_keeps_its_link_its_empty_directory_and_its_modes() {
    let case = Case::new();
    project(&case);
    let before = listing(&case.path("proj"));
    let out = case.run(&[
        "reduce",
        "-j",
        "1",
        "--stats-json",
        "stats.json",
        "./t.sh",
        "proj",
    ]);
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(0), "{err}");
    assert_eq!(
        listing(&case.path("proj.orig")),
        before,
        "the original is kept"
    );
    let after = listing(&case.path("proj"));
    assert_eq!(
        after,
        [
            "cache/",
            "lib/",
            "lib/needed.txt 644 \"KEY\"",
            "link -> lib/needed.txt",
            "run.sh 755 \"\"",
        ],
        "{err}"
    );
    assert!(err.contains("files"), "{err}");
    let stats = json(&case.path("stats.json"));
    assert_eq!(stats["initial_files"], 4);
    assert_eq!(stats["final_files"], 2);
    assert_eq!(stats["final_bytes"], 3);
    // The passes' bytes removed are the files' bytes, not the names and headers of the tree.
    let by_passes: u64 = (stats["passes"].as_array().unwrap().iter())
        .map(|p| p["bytes_removed"].as_u64().unwrap())
        .sum();
    let removed = stats["initial_bytes"].as_u64().unwrap() - 3;
    assert_eq!(by_passes, removed, "{stats}");
    // Each file was reduced as the kind its own name says.
    assert_eq!(stats["kind"]["files"]["lib/needed.txt"], "text", "{stats}");
    assert_eq!(stats["kind"]["files"]["run.sh"], "shell", "{stats}");
    // Nothing else beside the input: no temporary tree left behind.
    let mut entries = case.entries();
    entries.retain(|e| e != "tmp");
    assert_eq!(entries, ["proj", "proj.orig", "stats.json", "t.sh"]);
    assert!(
        case.temp_leftovers().is_empty(),
        "{:?}",
        case.temp_leftovers()
    );
}

#[test]
fn output_inside_the_input_directory_is_refused_before_any_test() {
    let case = Case::new();
    project(&case);
    let ran = case.path("ran");
    case.script("t2.sh", &format!("touch {}; exit 0", ran.display()));
    for o in ["proj", "proj/out", "proj/lib", ".", "proj/../proj"] {
        let out = case.run(&["reduce", "./t2.sh", "proj", "-o", o]);
        assert_eq!(out.status.code(), Some(2), "-o {o}: {}", stderr(&out));
        assert!(stderr(&out).contains("-o"), "{}", stderr(&out));
    }
    assert!(!ran.exists(), "a test ran before -o was refused");
    // A fresh path outside is fine, and the input is left alone.
    let before = listing(&case.path("proj"));
    let out = case.run(&["reduce", "-j", "1", "./t.sh", "proj", "-o", "small"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(listing(&case.path("proj")), before);
    assert!(!case.path("proj.orig").exists());
    assert_eq!(listing(&case.path("small")).len(), 5);
}

#[test]
fn one_job_and_two_give_the_same_tree() {
    let mut results = Vec::new();
    for jobs in ["1", "2"] {
        let case = Case::new();
        project(&case);
        let out = case.run(&[
            "reduce",
            "-j",
            jobs,
            "--stats-json",
            "s.json",
            "./t.sh",
            "proj",
            "-o",
            "out",
        ]);
        assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
        let tests = json(&case.path("s.json"))["tests_run"].clone();
        results.push((listing(&case.path("out")), tests));
    }
    assert_eq!(results[0], results[1]);
}

#[test]
fn ctrl_c_during_a_tree_reduction_keeps_the_best_tree() {
    let case = Case::new();
    project(&case);
    let (seen, slow) = (case.path("seen"), case.path("slow"));
    // The first interesting tree without docs passes at once (and becomes the best); every
    // later one waits for the interruption.
    case.script(
        "slow.sh",
        &format!(
            r#"if [ ! -e docs ] && [ -x run.sh ] && grep -q KEY lib/needed.txt; then
  if [ -e {seen} ]; then touch {slow}; sleep 30; fi
  touch {seen}; exit 0
fi
[ -x run.sh ] && grep -q KEY lib/needed.txt"#,
            seen = seen.display(),
            slow = slow.display()
        ),
    );
    let child = case
        .command(&["reduce", "-j", "1", "./slow.sh", "proj"])
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    assert!(wait_for(&slow, 60), "the reduction never got that far");
    signal(&child, libc::SIGINT);
    let out = child.wait_with_output().unwrap();
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(130), "{err}");
    let after = listing(&case.path("proj"));
    assert!(after.iter().all(|e| !e.starts_with("docs")), "{after:?}");
    assert!(
        after.iter().any(|e| e.starts_with("lib/needed.txt")),
        "{after:?}"
    );
    assert!(case.path("proj.orig/docs/README").exists());
    let mut entries = case.entries();
    entries.retain(|e| e != "tmp" && e != "slow" && e != "seen");
    assert_eq!(entries, ["proj", "proj.orig", "slow.sh", "t.sh"], "{err}");
}

#[test]
fn a_killed_tree_reduction_resumes_to_the_same_tree() {
    // Each call of the test is logged, so the run can be killed half way.
    let logged = |case: &Case| {
        project(case);
        let body = std::fs::read_to_string(case.path("t.sh")).unwrap();
        let calls = case.path("calls");
        case.script(
            "t.sh",
            &format!(
                "echo x >> {}\nsleep 0.02\n{}",
                calls.display(),
                body.lines().skip(1).collect::<Vec<_>>().join("\n")
            ),
        );
    };
    let full = Case::new();
    logged(&full);
    let out = full.run(&["reduce", "-j1", "--run-dir", "run", "./t.sh", "proj"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let expected = listing(&full.path("proj"));
    let full_tests = line_count(&full.path("calls"));

    let case = Case::new();
    logged(&case);
    let before = listing(&case.path("proj"));
    let mut child = case
        .command(&["reduce", "-j1", "--run-dir", "run", "./t.sh", "proj"])
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(60);
    while line_count(&case.path("calls")) < full_tests / 2 {
        assert!(std::time::Instant::now() < deadline, "never got half way");
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
    child.kill().unwrap();
    child.wait().unwrap();
    let killed_at = line_count(&case.path("calls"));
    assert!(killed_at < full_tests, "killed too late");

    let out = case.run(&["reduce", "--resume", "run", "-j", "2"]);
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(0), "{err}");
    assert!(err.contains("taken from the run directory"), "{err}");
    assert_eq!(listing(&case.path("proj")), expected, "{err}");
    assert_eq!(
        listing(&case.path("proj.orig")),
        before,
        "one backup, the original"
    );
    let mut entries = case.entries();
    entries.retain(|e| e != "tmp");
    assert_eq!(
        entries,
        ["calls", "proj", "proj.orig", "run", "t.sh"],
        "{err}"
    );
    assert!(
        line_count(&case.path("calls")) - killed_at < full_tests,
        "the resumed run started over"
    );
}

#[test]
fn also_interesting_keeps_candidate_trees() {
    let case = Case::new();
    project(&case);
    // Exit 3 for an uninteresting tree whose needed file kept its first line.
    case.script(
        "t3.sh",
        &format!(
            "{} \"$1\" && exit 0\ngrep -q first lib/needed.txt && exit 3\nexit 1",
            case.path("t.sh").display()
        ),
    );
    let out = case.run(&[
        "reduce",
        "-j1",
        "--run-dir",
        "run",
        "--also-interesting",
        "3",
        "./t3.sh",
        "proj",
        "-o",
        "out",
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let kept: Vec<_> = std::fs::read_dir(case.path("run/also-interesting"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    assert!(!kept.is_empty());
    for tree in &kept {
        assert!(tree.to_string_lossy().ends_with("-proj"), "{tree:?}");
        let needed = std::fs::read_to_string(tree.join("lib/needed.txt")).unwrap();
        assert!(needed.contains("first"), "{needed:?}");
    }
}

#[test]
fn skip_pass_leaves_indented_blocks_alone_in_a_tree() {
    // `x = 1` indented under a header: only indent/blocks can bring it out to column 0.
    let run = |skip: &[&str]| {
        let case = Case::new();
        std::fs::create_dir(case.path("proj")).unwrap();
        std::fs::write(case.path("proj/f.py"), "def f():\n    x = 1\n    y = 2\n").unwrap();
        case.script("t.sh", "grep -q 'x = 1' f.py");
        let mut args = vec!["reduce", "-j1", "--passes", "split/lines"];
        args.extend(skip);
        args.extend(["./t.sh", "proj", "-o", "out"]);
        let out = case.run(&args);
        assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
        std::fs::read_to_string(case.path("out/f.py")).unwrap()
    };
    assert_eq!(run(&[]), "x = 1\n");
    assert_eq!(run(&["--skip-pass", "indent/blocks"]), "    x = 1\n");
}

#[test]
fn resume_refuses_a_tree_edited_since_the_run() {
    let case = Case::new();
    project(&case);
    let out = case.run(&["reduce", "-j1", "--run-dir", "run", "./t.sh", "proj"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    // The user edits the reduced tree by hand: resuming must not overwrite the edit.
    let edited = case.path("proj/lib/needed.txt");
    std::fs::write(&edited, "my own KEY line\n").unwrap();
    let out = case.run(&["reduce", "--resume", "run"]);
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains("changed since"), "{err}");
    assert_eq!(
        std::fs::read_to_string(&edited).unwrap(),
        "my own KEY line\n"
    );
}

#[test]
fn a_division_reached_through_an_attribute_and_a_call_comes_out_to_module_level() {
    // The divisor is `x.count` and the division sits in a function main.py calls: only with
    // the chain turned into `0` and the function's header gone does calc.py raise on import,
    // so that main.py needs only its import and item.py can go (the 2-file minimum).
    if std::process::Command::new("python3")
        .arg("-c")
        .arg("")
        .status()
        .map_or(true, |s| !s.success())
    {
        eprintln!("python3 not found: skipped");
        return;
    }
    let case = Case::new();
    let dir = case.path("proj");
    std::fs::create_dir(&dir).unwrap();
    std::fs::write(
        dir.join("main.py"),
        "import calc\n\ncalc.ratio(calc.ITEM)\n",
    )
    .unwrap();
    std::fs::write(
        dir.join("calc.py"),
        "import item\n\nITEM = item.Item()\n\n\ndef ratio(x):\n    return 1 / x.count\n",
    )
    .unwrap();
    std::fs::write(dir.join("item.py"), "class Item:\n    count = 0\n").unwrap();
    case.script(
        "t.sh",
        r#"out=$(timeout 5 python3 -E -s -S -B main.py 2>&1 </dev/null) && exit 1
printf '%s\n' "$out" | grep 'File "' | tail -n 1 | grep -q '/calc\.py"' || exit 1
printf '%s\n' "$out" | tail -n 1 | grep -q '^ZeroDivisionError'"#,
    );
    // Three passes keep the test short; the chain, the `return`, the header and the call
    // each need one of them (or indent/blocks, which every file's schedule starts with).
    let out = case.run(&[
        "reduce",
        "-j",
        "2",
        "--passes",
        "split/lines,split/tokens,expressions",
        "./t.sh",
        "proj",
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(
        listing(&case.path("proj")),
        ["calc.py 644 \"1/0\"", "main.py 644 \"import calc\""]
    );
    assert_eq!(listing(&case.path("proj.orig")).len(), 3);
}

/// A tree whose `a.txt` must hold `KEY`; a content of at most 4 bytes holding it passes only
/// the first time that content is tested, as a reduced program whose undefined behaviour
/// printed the right thing once. The luck is the content's own, not the first such content's
/// to reach the test: with more jobs, which of two lucky contents reaches the test first is a
/// race between workers, and the result would depend on it.
fn lucky_tree_reduction(
    jobs: usize,
    batch: usize,
) -> (Vec<u8>, myhill::Report, Vec<String>, (u64, u64)) {
    use myhill::archive::{Archive, Entry};
    use myhill::report::Counter;
    use myhill::{Event, FnOracle, ReduceOptions, Reduction, Strategy};
    let content = file_in;
    let lucky = |c: &[u8]| c.len() <= 4;
    let seen = std::sync::Mutex::new(std::collections::HashSet::new());
    let oracle = FnOracle::new(|tree: &[u8]| {
        let Some(a) = content(tree, b"a.txt") else {
            return false;
        };
        a.windows(3).any(|w| w == b"KEY") && (!lucky(&a) || seen.lock().unwrap().insert(a))
    });
    let input = Archive::new(vec![
        Entry::file("a.txt", 0o644, b"first line\nthe KEY is here\nlast line\n"),
        Entry::file("b.txt", 0o644, b"other words\n".repeat(10).as_slice()),
    ])
    .unwrap()
    .encode();
    let options = ReduceOptions {
        jobs,
        batch,
        ..ReduceOptions::default()
    };
    let log = std::cell::RefCell::new(Vec::new());
    let finished = {
        let mut reduction = Reduction::new(input, &oracle, options);
        reduction.on_event(|e| match e {
            Event::PassStarted { pass } => log.borrow_mut().push(format!("pass {pass}")),
            Event::Reduced { bytes, .. } => {
                let a = content(bytes, b"a.txt").unwrap_or_default();
                let what = if lucky(&a) { "lucky" } else { "plain" };
                log.borrow_mut().push(format!("reduced {what}"));
            }
            Event::RolledBack { bytes } => {
                let a = content(bytes, b"a.txt").expect("a tree with a.txt");
                log.borrow_mut().push(format!("rolled back to {}", a.len()));
            }
            _ => {}
        });
        let mut schedule = myhill::strategy::directory_schedule(
            || Strategy::named("default").unwrap().schedule(),
            &[],
        );
        reduction.run(&mut schedule).unwrap()
    };
    let counted = |c: Counter| match finished.report.counters.get(&c) {
        Some(myhill::report::Figure::Count(n)) => *n,
        _ => 0,
    };
    let in_a_file = (
        counted(Counter::FilesEachReruns),
        counted(Counter::FilesEachRollbacks),
    );
    // The result passes the test now, when no lucky content does any more.
    assert!(oracle_passes(&finished.best));
    (finished.best, finished.report, log.into_inner(), in_a_file)
}

/// The content of the file at `path` in the tree `tree` encodes, if there is one.
fn file_in(tree: &[u8], path: &[u8]) -> Option<Vec<u8>> {
    let tree = myhill::archive::Archive::decode(tree).ok()?;
    tree.entries()
        .iter()
        .find(|e| e.path == path)
        .map(|e| match &e.kind {
            myhill::archive::EntryKind::File(c) => c.clone(),
            _ => Vec::new(),
        })
}

/// Whether `tree` passes the lucky tree's test once no lucky content passes any more.
fn oracle_passes(tree: &[u8]) -> bool {
    file_in(tree, b"a.txt").is_some_and(|a| a.len() > 4 && a.windows(3).any(|w| w == b"KEY"))
}

#[test]
fn a_lucky_file_is_rolled_back_inside_its_own_schedule() {
    let (best, report, log, (reruns, rollbacks)) = lucky_tree_reduction(1, 1);
    assert_eq!(report.rollbacks, 1, "{log:#?}");
    assert!(report.confirmed);
    // Caught by the re-run right after the pass of a.txt that accepted it: no pass ran on
    // the lucky tree, and the rollback put back a tree where a.txt is as it was confirmed.
    let lucky = log
        .iter()
        .position(|l| l == "reduced lucky")
        .expect("a lucky step");
    let back = log
        .iter()
        .position(|l| l.starts_with("rolled back"))
        .unwrap();
    assert!(lucky < back, "{log:#?}");
    assert!(
        log[lucky..back].iter().all(|l| !l.starts_with("pass ")),
        "{log:#?}"
    );
    assert!(
        log[..lucky]
            .iter()
            .rev()
            .find(|l| l.starts_with("pass "))
            .unwrap()
            .ends_with("@ a.txt")
    );
    // The file's schedule went on after the rollback, on the file in the tree put back.
    assert!(
        log[back..].iter().any(|l| l.ends_with("@ a.txt")),
        "{log:#?}"
    );
    assert!(
        log[back..].contains(&"reduced plain".to_string()),
        "{log:#?}"
    );
    assert!(best.len() < 200);
    // The stats say so: re-runs and the rollback inside a file's schedule.
    assert!(reruns > 0 && rollbacks == 1, "{reruns} {rollbacks}");
}

#[test]
fn a_lucky_file_ends_the_same_at_any_jobs() {
    for batch in [1, 4] {
        let (best, report, _, _) = lucky_tree_reduction(1, batch);
        assert!(report.rollbacks >= 1 && report.confirmed, "{report:?}");
        let (best3, report3, _, _) = lucky_tree_reduction(3, batch);
        assert_eq!(
            (best3, report3.rollbacks, report3.eval.tests_run),
            (best, report.rollbacks, report.eval.tests_run)
        );
    }
}
