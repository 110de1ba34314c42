//! The command oracle: runs the user's test on a candidate in a fresh temporary directory.
//!
//! Main types: [`CommandOracle`], [`CommandSpec`], [`InputMode`] and [`Signature`]. For each
//! test the candidate is written under the input's own file name in a new directory, which is
//! the test's working directory; its path is appended to the test's arguments and the file is
//! also fed on stdin (as [`InputMode`] allows). The test runs in its own process group, which
//! is killed as a whole on timeout, on cancellation and after the test exits, so no process
//! of a test outlives it. The directory is removed after every test, whatever happened.
//!
//! ```no_run
//! use myhill::command::{CommandOracle, CommandSpec};
//! use myhill::{Cancel, Oracle, Verdict};
//! let spec = CommandSpec::new(vec!["./test.sh".into()], "input.c");
//! let oracle = CommandOracle::new(spec);
//! let out = oracle.test(b"int main(){}", &Cancel::never()).unwrap();
//! println!("{:?} in {:?}", out.verdict, out.duration);
//! ```
//!
//! Limits: Unix only. A test that leaves its process group (`setsid`) escapes the kill.
//! Output capture goes through files, so a test that prints gigabytes costs disk, not memory.

use crate::oracle::{Cancel, Oracle, OracleError, Outcome, Verdict};
use regex::bytes::Regex;
use std::fs::File;
use std::io::Read;
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

/// How the candidate reaches the test.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum InputMode {
    /// Only as the last argument.
    Arg,
    /// Only on standard input.
    Stdin,
    /// Only as the file in the working directory (no argument, no stdin).
    File,
    /// All of the above.
    All,
}

impl std::str::FromStr for InputMode {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        match s {
            "arg" => Ok(InputMode::Arg),
            "stdin" => Ok(InputMode::Stdin),
            "file" => Ok(InputMode::File),
            "all" => Ok(InputMode::All),
            _ => Err(format!(
                "unknown input mode {s:?}: use arg, stdin, file or all"
            )),
        }
    }
}

/// What makes a run interesting beyond (or instead of) exit status 0.
#[derive(Clone, Debug, Default)]
pub struct Signature {
    pub expect_exit: Option<i32>,
    pub stdout_regex: Option<Regex>,
    pub stderr_regex: Option<Regex>,
    /// Exit status, stdout and stderr that must be reproduced exactly.
    pub same_as: Option<(Option<i32>, Vec<u8>, Vec<u8>)>,
}

impl Signature {
    /// Whether any signature option is set; without one, exit status 0 means interesting.
    pub fn is_set(&self) -> bool {
        self.expect_exit.is_some()
            || self.stdout_regex.is_some()
            || self.stderr_regex.is_some()
            || self.same_as.is_some()
    }

    fn needs_output(&self) -> bool {
        self.stdout_regex.is_some() || self.stderr_regex.is_some() || self.same_as.is_some()
    }

    /// Whether a finished run with this status and output is interesting.
    pub fn matches(&self, code: Option<i32>, stdout: &[u8], stderr: &[u8]) -> bool {
        if !self.is_set() {
            return code == Some(0);
        }
        self.expect_exit.is_none_or(|want| code == Some(want))
            && self
                .stdout_regex
                .as_ref()
                .is_none_or(|re| re.is_match(stdout))
            && self
                .stderr_regex
                .as_ref()
                .is_none_or(|re| re.is_match(stderr))
            && self
                .same_as
                .as_ref()
                .is_none_or(|(c, o, e)| *c == code && o == stdout && e == stderr)
    }
}

/// Everything needed to run the user's test.
#[derive(Clone, Debug)]
pub struct CommandSpec {
    /// The test's command line, already split into words.
    pub argv: Vec<String>,
    /// The file name the candidate is written under (the input's own name).
    pub file_name: String,
    pub input_mode: InputMode,
    pub signature: Signature,
    /// A timeout counts as interesting (for reducing hangs).
    pub timeout_is_interesting: bool,
    /// Keep what the test prints even when no signature needs it.
    pub capture_output: bool,
    /// Where the per-test directories are made (default: the system's temp dir).
    pub temp_root: Option<PathBuf>,
}

impl CommandSpec {
    pub fn new(argv: Vec<String>, file_name: &str) -> CommandSpec {
        CommandSpec {
            argv,
            file_name: file_name.to_string(),
            input_mode: InputMode::All,
            signature: Signature::default(),
            timeout_is_interesting: false,
            capture_output: false,
            temp_root: None,
        }
    }
}

/// Runs the user's test; see the module doc for the contract.
pub struct CommandOracle {
    spec: CommandSpec,
    /// The per-test time limit in milliseconds; 0 means none.
    timeout_ms: AtomicU64,
}

/// The timeout used until the first run has been timed, and the upper clamp.
pub const MAX_TIMEOUT: Duration = Duration::from_secs(300);
/// The lower clamp of the dynamic timeout.
pub const MIN_TIMEOUT: Duration = Duration::from_secs(1);

/// The dynamic timeout: about ten times the first run, clamped to 1..300 s.
pub fn dynamic_timeout(first_run: Duration) -> Duration {
    (first_run * 10).clamp(MIN_TIMEOUT, MAX_TIMEOUT)
}

impl CommandOracle {
    pub fn new(spec: CommandSpec) -> CommandOracle {
        CommandOracle {
            spec,
            timeout_ms: AtomicU64::new(MAX_TIMEOUT.as_millis() as u64),
        }
    }

    pub fn set_timeout(&self, timeout: Duration) {
        self.timeout_ms
            .store(timeout.as_millis().max(1) as u64, Ordering::Relaxed);
    }

    pub fn timeout(&self) -> Duration {
        Duration::from_millis(self.timeout_ms.load(Ordering::Relaxed))
    }

    /// Sets the signature (for `--same-output`, once the original's output is known).
    pub fn set_same_as(&mut self, code: Option<i32>, stdout: Vec<u8>, stderr: Vec<u8>) {
        self.spec.signature.same_as = Some((code, stdout, stderr));
    }

    /// Runs the test on `candidate` with `cwd` as working directory and the candidate at
    /// `path`, which the caller has already written.
    pub fn run_at(
        &self,
        path: &Path,
        cwd: &Path,
        capture_dir: &Path,
        cancel: &Cancel,
    ) -> Result<Outcome, OracleError> {
        let spec = &self.spec;
        let capture = spec.capture_output || spec.signature.needs_output();
        let mut cmd = Command::new(&spec.argv[0]);
        cmd.args(&spec.argv[1..]).current_dir(cwd).process_group(0);
        if matches!(spec.input_mode, InputMode::Arg | InputMode::All) {
            cmd.arg(path);
        }
        if matches!(spec.input_mode, InputMode::Stdin | InputMode::All) {
            cmd.stdin(
                File::open(path).map_err(|e| setup(format!("cannot reopen the candidate: {e}")))?,
            );
        } else {
            cmd.stdin(Stdio::null());
        }
        let (out_path, err_path) = (capture_dir.join("stdout"), capture_dir.join("stderr"));
        if capture {
            let out = File::create(&out_path)
                .map_err(|e| setup(format!("cannot capture stdout: {e}")))?;
            let err = File::create(&err_path)
                .map_err(|e| setup(format!("cannot capture stderr: {e}")))?;
            cmd.stdout(out).stderr(err);
        } else {
            cmd.stdout(Stdio::null()).stderr(Stdio::null());
        }
        let started = Instant::now();
        let mut child = cmd.spawn().map_err(|e| {
            setup(format!(
                "cannot run the test {:?}: {e} (check that it exists and is executable, e.g. chmod +x)",
                spec.argv[0]
            ))
        })?;
        let group = child.id() as i32;
        let timeout = self.timeout();
        let exit_watch = ExitWatch::new(group);
        let status = loop {
            match child.try_wait() {
                Ok(Some(status)) => break Some(status),
                Ok(None) => {}
                Err(e) => {
                    kill_group(group);
                    let _ = child.wait();
                    return Err(setup(format!("cannot wait for the test: {e}")));
                }
            }
            if cancel.is_cancelled() {
                kill_group(group);
                let _ = child.wait();
                return Err(OracleError::Cancelled);
            }
            let elapsed = started.elapsed();
            if elapsed >= timeout {
                kill_group(group);
                let _ = child.wait();
                break None;
            }
            // Wake on exit at once, but at least every 10 ms to notice cancellation.
            exit_watch.wait((timeout - elapsed).min(Duration::from_millis(10)));
        };
        let duration = started.elapsed();
        // Whatever the test left running in its group goes with it.
        kill_group(group);
        let (stdout, stderr) = if capture {
            (read_all(&out_path), read_all(&err_path))
        } else {
            (Vec::new(), Vec::new())
        };
        let Some(status) = status else {
            let verdict = if spec.timeout_is_interesting {
                Verdict::Interesting
            } else {
                Verdict::TimedOut
            };
            return Ok(Outcome {
                verdict,
                duration,
                exit_code: None,
                stdout,
                stderr,
            });
        };
        let code = status.code();
        // The candidate's directory differs per test; hide it so outputs compare equal.
        let dir = cwd.as_os_str().as_encoded_bytes();
        let (stdout, stderr) = (strip_path(stdout, dir), strip_path(stderr, dir));
        let verdict = if spec.signature.matches(code, &stdout, &stderr) {
            Verdict::Interesting
        } else {
            Verdict::NotInteresting
        };
        Ok(Outcome {
            verdict,
            duration,
            exit_code: code,
            stdout,
            stderr,
        })
    }
}

/// Where per-test directories go when no root is given: `$TMPDIR` if set, else `/dev/shm`
/// when it is a writable directory (memory-backed: making and removing a directory there costs
/// about 60 us, against over a millisecond on a disk file system), else the system temp dir.
pub fn default_temp_root() -> PathBuf {
    static ROOT: std::sync::OnceLock<PathBuf> = std::sync::OnceLock::new();
    ROOT.get_or_init(|| {
        if std::env::var_os("TMPDIR").is_some_and(|t| !t.is_empty()) {
            return std::env::temp_dir();
        }
        let shm = Path::new("/dev/shm");
        if shm.is_dir() && tempfile::tempdir_in(shm).is_ok() {
            return shm.to_path_buf();
        }
        std::env::temp_dir()
    })
    .clone()
}

/// Waits for a child to exit without polling, through a pidfd where the kernel has them
/// (Linux 5.3+), otherwise by short sleeps.
struct ExitWatch {
    pidfd: i32,
}

impl ExitWatch {
    fn new(pid: i32) -> ExitWatch {
        // SAFETY: pidfd_open takes a pid and flags and returns a new descriptor or -1.
        let pidfd = unsafe { libc::syscall(libc::SYS_pidfd_open, pid, 0) } as i32;
        ExitWatch { pidfd }
    }

    /// Returns when the child has exited or `at_most` has passed.
    fn wait(&self, at_most: Duration) {
        if self.pidfd < 0 {
            std::thread::sleep(at_most.min(Duration::from_micros(500)));
            return;
        }
        let mut fds = libc::pollfd {
            fd: self.pidfd,
            events: libc::POLLIN,
            revents: 0,
        };
        let ms = at_most.as_millis().clamp(1, i32::MAX as u128) as i32;
        // SAFETY: one valid pollfd, owned by this frame, for the duration of the call.
        unsafe {
            libc::poll(&mut fds, 1, ms);
        }
    }
}

impl Drop for ExitWatch {
    fn drop(&mut self) {
        if self.pidfd >= 0 {
            // SAFETY: the descriptor was opened by `new` and is closed once.
            unsafe {
                libc::close(self.pidfd);
            }
        }
    }
}

fn setup(msg: String) -> OracleError {
    OracleError::Setup(msg)
}

fn read_all(path: &Path) -> Vec<u8> {
    let mut buf = Vec::new();
    if let Ok(mut f) = File::open(path) {
        let _ = f.read_to_end(&mut buf);
    }
    buf
}

fn strip_path(bytes: Vec<u8>, dir: &[u8]) -> Vec<u8> {
    if dir.is_empty() || !bstr::ByteSlice::contains_str(&bytes[..], dir) {
        return bytes;
    }
    bstr::ByteSlice::replace(&bytes[..], dir, b"<dir>")
}

fn make_writable(dir: &Path) {
    use std::os::unix::fs::PermissionsExt;
    let _ = std::fs::set_permissions(dir, std::fs::Permissions::from_mode(0o700));
    if let Ok(entries) = std::fs::read_dir(dir) {
        for entry in entries.flatten() {
            if entry.file_type().is_ok_and(|t| t.is_dir()) {
                make_writable(&entry.path());
            }
        }
    }
}

fn kill_group(group: i32) {
    // SAFETY: killpg only sends a signal; a group that is already gone gives ESRCH.
    unsafe {
        libc::killpg(group, libc::SIGKILL);
    }
}

impl Oracle for CommandOracle {
    fn test(&self, candidate: &[u8], cancel: &Cancel) -> Result<Outcome, OracleError> {
        let mut builder = tempfile::Builder::new();
        builder.prefix("myhill-");
        let root = match &self.spec.temp_root {
            Some(dir) => builder.tempdir_in(dir),
            None => builder.tempdir_in(default_temp_root()),
        }
        .map_err(|e| setup(format!("cannot make a temporary directory: {e}")))?;
        let work = root.path().join("work");
        std::fs::create_dir(&work)
            .map_err(|e| setup(format!("cannot make {}: {e}", work.display())))?;
        let path = work.join(&self.spec.file_name);
        std::fs::write(&path, candidate).map_err(|e| {
            setup(format!(
                "cannot write the candidate to {}: {e}",
                path.display()
            ))
        })?;
        let result = self.run_at(&path, &work, root.path(), cancel);
        let root_path = root.path().to_path_buf();
        if root.close().is_err() {
            // A test may have left read-only directories behind; the directory must still go.
            make_writable(&root_path);
            let _ = std::fs::remove_dir_all(&root_path);
        }
        result
    }
}
