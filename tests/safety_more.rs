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
