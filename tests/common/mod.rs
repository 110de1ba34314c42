//! What the end-to-end tests share: a case directory with its own TMPDIR, and readers.

#![allow(dead_code)]

use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

pub const BIN: &str = env!("CARGO_BIN_EXE_myhill");

/// The binary under test: `MYHILL_TEST_BIN` if set (to check that a regression test fails on
/// an older build), else the one cargo built.
pub fn bin() -> String {
    std::env::var("MYHILL_TEST_BIN").unwrap_or_else(|_| BIN.to_string())
}

pub struct Case {
    pub dir: tempfile::TempDir,
    /// The `XDG_STATE_HOME` of the runs, where their run directories go.
    pub state: tempfile::TempDir,
}

impl Case {
    pub fn new() -> Case {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir(dir.path().join("tmp")).unwrap();
        Case {
            dir,
            state: tempfile::tempdir().unwrap(),
        }
    }

    /// The run directories made so far, oldest first.
    pub fn run_dirs(&self) -> Vec<PathBuf> {
        let root = self.state.path().join("myhill/runs");
        let mut dirs: Vec<PathBuf> = std::fs::read_dir(root)
            .map(|d| d.map(|e| e.unwrap().path()).collect())
            .unwrap_or_default();
        dirs.sort();
        dirs
    }

    pub fn path(&self, name: &str) -> PathBuf {
        self.dir.path().join(name)
    }

    pub fn file(&self, name: &str, content: &[u8]) -> PathBuf {
        let p = self.path(name);
        std::fs::write(&p, content).unwrap();
        p
    }

    pub fn script(&self, name: &str, body: &str) -> PathBuf {
        self.script_in("sh", name, body)
    }

    /// A script run by `/bin/<shell>`.
    pub fn script_in(&self, shell: &str, name: &str, body: &str) -> PathBuf {
        let p = self.file(name, format!("#!/bin/{shell}\n{body}\n").as_bytes());
        std::fs::set_permissions(&p, std::fs::Permissions::from_mode(0o755)).unwrap();
        p
    }

    /// The names in the case directory itself (not its TMPDIR's contents).
    pub fn entries(&self) -> Vec<String> {
        let mut names: Vec<String> = std::fs::read_dir(self.dir.path())
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        names
    }

    /// Runs myhill in the case directory with its own TMPDIR, so leftovers can be checked.
    pub fn command(&self, args: &[&str]) -> Command {
        let mut cmd = Command::new(bin());
        cmd.args(args)
            .current_dir(self.dir.path())
            .env("TMPDIR", self.path("tmp"))
            .env("XDG_STATE_HOME", self.state.path())
            .stdin(Stdio::null());
        cmd
    }

    pub fn run(&self, args: &[&str]) -> Output {
        self.command(args).output().unwrap()
    }

    pub fn read(&self, name: &str) -> Vec<u8> {
        std::fs::read(self.path(name)).unwrap()
    }

    pub fn temp_leftovers(&self) -> Vec<String> {
        std::fs::read_dir(self.path("tmp"))
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect()
    }
}

/// `myhill reduce` at two jobs kept in the run directory `run`, with `-o out.txt`, of the test
/// `./t.sh` on `in.txt`: the run the resume tests stop, edit around and take up again.
pub const KEPT_RUN: &[&str] = &[
    "reduce",
    "-j2",
    "--run-dir",
    "run",
    "-o",
    "out.txt",
    "./t.sh",
    "in.txt",
];

pub fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// Lines in a file (0 when it is not there): calls logged by a test, entries of tests.jsonl.
pub fn line_count(path: &Path) -> usize {
    std::fs::read(path)
        .map(|b| b.iter().filter(|&&c| c == b'\n').count())
        .unwrap_or(0)
}

pub fn json(path: &Path) -> serde_json::Value {
    serde_json::from_slice(&std::fs::read(path).unwrap()).unwrap()
}

pub fn processes_with(marker: &str) -> usize {
    let out = Command::new("pgrep").args(["-f", marker]).output().unwrap();
    String::from_utf8_lossy(&out.stdout).lines().count()
}

/// Sends `signal` to a running myhill.
pub fn signal(child: &std::process::Child, signal: i32) {
    // SAFETY: kill only sends a signal to our own child.
    unsafe {
        libc::kill(child.id() as i32, signal);
    }
}

/// Waits until `path` exists (a test reached a point), at most `seconds`.
pub fn wait_for(path: &Path, seconds: u64) -> bool {
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(seconds);
    while std::time::Instant::now() < deadline {
        if path.exists() {
            return true;
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    false
}
