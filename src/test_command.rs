//! The user's test as an oracle: each candidate in a fresh temporary directory, run as a process.
//!
//! Main types: [`TestCommand`] (an [`Oracle`]), [`TestSpec`] (the test's command line and how
//! candidates reach it), [`InputMode`], [`Signature`] and [`Diagnosis`]. For each test the
//! candidate is written under the input's own file name in a new directory, which is the test's
//! working directory; its path is appended to the test's arguments and the file is also fed on
//! stdin (as [`InputMode`] allows). The process runs through [`crate::process::run`]: its own group, a
//! time limit, SIGTERM then SIGKILL. The test's `TMPDIR` is a directory of its own inside
//! it (unless [`TestSpec::private_tmpdir`] is off), and the whole directory is removed after
//! every test, whatever happened: a shell killed before its `trap` could run leaves nothing. What the test prints goes to files in that directory and is read back as a
//! stream ([`crate::process::Output`]): memory does not grow with it.
//!
//! ```no_run
//! use myhill::{Oracle, TestCommand, TestSpec, process::Cancel};
//! let spec = TestSpec::parse("./test.sh --strict", "input.c").unwrap();
//! let oracle = TestCommand::new(spec);
//! let out = oracle.test(b"int main(){}", &Cancel::never()).unwrap();
//! println!("{:?} in {:?}", out.verdict, out.duration);
//! ```
//!
//! With [`TestSpec::tree`] the candidate is a directory tree ([`crate::archive::Archive`]): it is made
//! under the input's name in that directory, and the tree itself is the working directory and
//! the last argument (nothing on stdin); files the test creates there go with the directory.
//!
//! Limits: Unix only. What a test starts in a session of its own (`setsid`) is stopped when
//! the test ends on Linux only (see [`crate::command`]). A signal that ends the test counts as exit status 128 + the signal for `expect_exit`, as a
//! shell reports it.

use crate::archive::Archive;
use crate::capture::{Scan, StreamRegex, scan};
use crate::command::{Process, ProcessEnd, RunError, run};
use crate::error::Error;
use crate::oracle::{Cancel, Oracle, OracleError, Outcome, Output, Verdict};
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

/// The timeout used until the original's first run has been timed, and the upper clamp of
/// the dynamic timeout.
pub const MAX_TIMEOUT: Duration = Duration::from_secs(300);
/// The lower clamp of the dynamic timeout.
pub const MIN_TIMEOUT: Duration = Duration::from_secs(1);
/// The longest timeout anyone may ask for.
pub const LONGEST_TIMEOUT: Duration = Duration::from_secs(7 * 24 * 3600);
/// How many bytes of each stream are kept for messages.
const TAIL: usize = 4096;

/// The dynamic timeout: about ten times the first run, clamped to 1..300 s.
pub fn dynamic_timeout(first_run: Duration) -> Duration {
    (first_run * 10).clamp(MIN_TIMEOUT, MAX_TIMEOUT)
}

/// Reads a timeout given in seconds, refusing what no clock can hold.
///
/// ```
/// assert!(myhill::process::parse_timeout(0.5).is_ok());
/// assert!(myhill::process::parse_timeout(1e300).is_err());
/// assert!(myhill::process::parse_timeout(0.0).is_err());
/// ```
pub fn parse_timeout(seconds: f64) -> Result<Duration, Error> {
    match Duration::try_from_secs_f64(seconds) {
        Ok(d) if d > Duration::ZERO && d <= LONGEST_TIMEOUT => Ok(d.max(Duration::from_millis(1))),
        _ => Err(Error::BadOption(format!(
            "--timeout must be a number of seconds above 0 and at most {} (a week); got {seconds}",
            LONGEST_TIMEOUT.as_secs()
        ))),
    }
}

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

impl InputMode {
    fn passes_path(self) -> bool {
        matches!(self, InputMode::Arg | InputMode::All)
    }

    fn feeds_stdin(self) -> bool {
        matches!(self, InputMode::Stdin | InputMode::All)
    }
}

impl std::str::FromStr for InputMode {
    type Err = Error;
    fn from_str(s: &str) -> Result<Self, Error> {
        match s {
            "arg" => Ok(InputMode::Arg),
            "stdin" => Ok(InputMode::Stdin),
            "file" => Ok(InputMode::File),
            "all" => Ok(InputMode::All),
            _ => Err(Error::BadOption(format!(
                "unknown input mode {s:?}: use arg, stdin, file or all"
            ))),
        }
    }
}

/// What makes a run interesting beyond (or instead of) exit status 0. When any part is set,
/// all set parts must hold and exit status 0 is no longer required. Regular expressions run
/// over the output as a stream, with the per-test directory's path shown as `<dir>`.
///
/// ```
/// use myhill::process::Signature;
/// let sig = Signature::new(Some(139), None, Some("Segmentation"), false).unwrap();
/// assert!(sig.is_set());
/// assert!(Signature::new(None, Some("("), None, false).is_err());
/// assert!(Signature::new(Some(999), None, None, false).is_err());
/// ```
#[derive(Clone, Debug)]
pub struct Signature {
    expect_exit: Option<i32>,
    stdout_regex: Option<StreamRegex>,
    stderr_regex: Option<StreamRegex>,
    same_output: bool,
    /// The parts as given, for [`TestSpec::identity`].
    described: String,
}

impl Default for Signature {
    fn default() -> Signature {
        Signature::new(None, None, None, false).expect("no pattern to reject")
    }
}

impl Signature {
    /// A signature: the exit status the test must end with (a signal counts as 128 + its
    /// number), regular expressions stdout and stderr must match, and whether exit status,
    /// stdout and stderr must equal the original's (as [`Oracle::calibrate`] recorded it).
    pub fn new(
        expect_exit: Option<i32>,
        stdout_regex: Option<&str>,
        stderr_regex: Option<&str>,
        same_output: bool,
    ) -> Result<Signature, Error> {
        let compile = |re: Option<&str>, what: &str| {
            re.map(|r| {
                StreamRegex::new(r).map_err(|e| {
                    Error::BadOption(format!("{what} is not a valid regular expression: {e}"))
                })
            })
            .transpose()
        };
        if let Some(code) = expect_exit.filter(|c| !(0..=255).contains(c)) {
            return Err(Error::BadOption(format!(
                "--expect-exit {code} can never match: an exit status is 0 to 255 (a signal \
                 counts as 128 + its number, e.g. 139 for SIGSEGV)"
            )));
        }
        Ok(Signature {
            expect_exit,
            stdout_regex: compile(stdout_regex, "--stdout-regex")?,
            stderr_regex: compile(stderr_regex, "--stderr-regex")?,
            same_output,
            described: format!("{expect_exit:?} {stdout_regex:?} {stderr_regex:?} {same_output}"),
        })
    }

    /// Whether any part is set; without one, exit status 0 means interesting.
    pub fn is_set(&self) -> bool {
        self.expect_exit.is_some()
            || self.stdout_regex.is_some()
            || self.stderr_regex.is_some()
            || self.same_output
    }

    /// Whether the output must be read.
    fn needs_output(&self) -> bool {
        self.stdout_regex.is_some() || self.stderr_regex.is_some() || self.same_output
    }

    /// Whether a run that ended with `status` (128 + a signal for a signal) and printed the
    /// files `stdout` and `stderr` has the signature's exit status and output; `same_output`
    /// is not checked here (it needs the original's run). For `bisect`'s runs.
    pub fn holds_for_files(
        &self,
        status: Option<i32>,
        stdout: &Path,
        stderr: &Path,
    ) -> std::io::Result<bool> {
        let matched = |path: &Path, re: &Option<StreamRegex>| -> std::io::Result<bool> {
            Ok(match re {
                Some(re) => scan(path, b"", Some(re), 0)?.matched.unwrap_or(false),
                None => true,
            })
        };
        Ok(self.expect_exit.is_none_or(|want| status == Some(want))
            && matched(stdout, &self.stdout_regex)?
            && matched(stderr, &self.stderr_regex)?)
    }
}

/// Everything needed to run the user's test.
#[derive(Clone, Debug)]
pub struct TestSpec {
    /// The test's command line, split into words, its program resolved.
    pub argv: Vec<String>,
    /// The file name each candidate is written under (the input's own name).
    pub file_name: String,
    /// How the candidate reaches the test.
    pub input_mode: InputMode,
    /// What makes a run interesting.
    pub signature: Signature,
    /// A timeout counts as interesting (for reducing hangs).
    pub timeout_is_interesting: bool,
    /// A fixed time limit per test; `None` means dynamic: [`MAX_TIMEOUT`] until the
    /// original's first run is timed, then [`dynamic_timeout`] of it.
    pub timeout: Option<Duration>,
    /// Time between SIGTERM and SIGKILL when a test must stop early.
    pub grace: Duration,
    /// Where the per-test directories are made (default: `$TMPDIR` if set, else `/dev/shm` where
    /// usable, else the system temporary directory).
    pub temp_root: Option<PathBuf>,
    /// Give each test a `TMPDIR` of its own inside its directory, so what it leaves there
    /// (a `mktemp -d` a cancelled shell never removed, a compiler's temporaries) goes with it.
    pub private_tmpdir: bool,
    /// A command the test runs through, such as `srun --quiet --ntasks=1 --` on a cluster:
    /// its words come before the test's. Stopping a test stops the launcher's process group,
    /// and the launcher passes that on (srun cancels its job step).
    pub launcher: Vec<String>,
    /// Keep a copy of each candidate on which the test exits with this status in this
    /// directory (at most 1,000 of them), as C-Reduce's `--also-interesting`.
    pub also_interesting: Option<(i32, PathBuf)>,
    /// How many tests share one core at a time (at least 1): with more jobs than cores and no
    /// launcher, each test runs that many times slower than the first check measured, and the
    /// dynamic timeout grows with it, so a loaded machine does not turn slow tests into
    /// timeouts.
    pub sharing: u32,
    /// The input is a directory: each candidate is an [`Archive`], made as a directory
    /// that is the test's working directory and last argument.
    pub tree: bool,
}

/// The most candidates kept for `also_interesting`.
pub const ALSO_INTERESTING_MAX: u64 = 1000;

fn is_executable(path: &Path) -> bool {
    std::fs::metadata(path).is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
}

fn find_on_path(program: &str) -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .map(|dir| dir.join(program))
        .find(|p| is_executable(p))
}

impl TestSpec {
    /// What decides the test's verdicts, as a 128-bit hash: its command line (with the
    /// content of its program and of every file argument, so an edited script is a new test),
    /// the candidate's file name and how it is passed, the signature, and how timeouts count.
    /// The launcher, the working directories and the dynamic timeout are left out: they change
    /// where and how fast a test runs, not what it answers. Verdicts kept under one identity
    /// are reused only under the same.
    pub fn identity(&self) -> u128 {
        let mut text = format!(
            "{:?}\0{}\0{:?}\0{}\0{}\0{:?}",
            self.argv,
            self.file_name,
            self.input_mode,
            self.signature.described,
            self.timeout_is_interesting,
            self.timeout
        )
        .into_bytes();
        if self.tree {
            text.extend_from_slice(b"\0tree");
        }
        for word in &self.argv {
            let path = Path::new(word);
            if path.is_absolute()
                && let Ok(meta) = std::fs::metadata(path)
                && meta.is_file()
                && meta.len() <= 16 << 20
                && let Ok(bytes) = std::fs::read(path)
            {
                text.extend_from_slice(&xxhash_rust::xxh3::xxh3_128(&bytes).to_le_bytes());
            }
        }
        xxhash_rust::xxh3::xxh3_128(&text)
    }

    /// A spec for `argv`, run as given, with every other field at its default.
    pub fn new(argv: Vec<String>, file_name: &str) -> TestSpec {
        TestSpec {
            argv,
            file_name: file_name.to_string(),
            input_mode: InputMode::All,
            signature: Signature::default(),
            timeout_is_interesting: false,
            timeout: None,
            grace: crate::command::DEFAULT_GRACE,
            temp_root: None,
            private_tmpdir: true,
            launcher: Vec::new(),
            also_interesting: None,
            sharing: 1,
            tree: false,
        }
    }

    /// Splits a test command line like a shell would (no shell is run) and resolves its
    /// program, so it can run from a temporary directory: a path is made absolute, a bare name
    /// is looked up on `PATH`. Arguments naming files in the current directory are made
    /// absolute for the same reason.
    pub fn parse(command_line: &str, file_name: &str) -> Result<TestSpec, Error> {
        TestSpec::parse_in(command_line, file_name, &current_dir()?)
    }

    /// [`TestSpec::parse`] with relative paths taken from `cwd` rather than the current
    /// directory (a resumed run's test, given where the run began).
    pub fn parse_in(command_line: &str, file_name: &str, cwd: &Path) -> Result<TestSpec, Error> {
        let words = shlex::split(command_line).ok_or_else(|| {
            Error::BadTest(format!(
                "cannot split the test command {command_line:?}: check its quotes"
            ))
        })?;
        let Some(program) = words.first() else {
            return Err(Error::BadTest(
                "the test command is empty: give a script or program, e.g. ./test.sh".into(),
            ));
        };
        let resolved = resolve_program(program, cwd, true).map_err(|why| {
            Error::BadTest(match why {
                Unresolved::Missing => format!("the test {program} does not exist: check the path"),
                Unresolved::Directory => {
                    format!("the test {program} is a directory: give a script or program")
                }
                Unresolved::NotExecutable if !looks_runnable(&cwd.join(program)) => format!(
                    "the test {program} is not executable, and it has no #! line nor is it a \
                     program: it does not look like a test. Are TEST and INPUT swapped? The \
                     order is: myhill reduce TEST INPUT. If it is a script, give it a first line \
                     such as #!/bin/sh and run chmod +x {program}"
                ),
                Unresolved::NotExecutable => {
                    format!("the test {program} is not executable: run chmod +x {program}")
                }
                Unresolved::NotOnPath => format!(
                    "the test program {program:?} was not found on PATH: give its path, e.g. ./{program}"
                ),
            })
        })?;
        let mut argv = vec![resolved.to_string_lossy().into_owned()];
        for word in &words[1..] {
            let candidate = cwd.join(word);
            if !word.starts_with('-')
                && !word.is_empty()
                && candidate.exists()
                && !Path::new(word).is_absolute()
            {
                argv.push(candidate.to_string_lossy().into_owned());
            } else {
                argv.push(word.clone());
            }
        }
        Ok(TestSpec::new(argv, file_name))
    }

    /// Sets the launcher from a command line split like a shell would, its program resolved
    /// as the test's is (a relative path from the current directory, not the test's).
    ///
    /// ```
    /// let mut spec = myhill::TestSpec::new(vec!["true".into()], "input");
    /// spec.set_launcher("env --").unwrap();
    /// assert_eq!(spec.launcher, ["env", "--"]);
    /// assert!(spec.set_launcher("./no-such-launcher").is_err());
    /// ```
    pub fn set_launcher(&mut self, command_line: &str) -> Result<(), Error> {
        let bad = |msg: String| Error::BadOption(msg);
        let mut words = shlex::split(command_line).ok_or_else(|| {
            bad(format!(
                "cannot split --launcher {command_line:?}: check its quotes"
            ))
        })?;
        let Some(program) = words.first() else {
            return Err(bad(
                "--launcher is empty: give a command such as 'srun --quiet --ntasks=1 --'".into(),
            ));
        };
        // A bare name stays as it is, found on PATH when the launcher starts, as a shell would.
        let resolved = resolve_program(program, &current_dir()?, false).map_err(|why| {
            bad(match why {
                Unresolved::Missing | Unresolved::NotOnPath => format!(
                    "--launcher: the program {program:?} was not found: install it or give its path"
                ),
                Unresolved::Directory => {
                    format!("--launcher: {program} is a directory: give a program")
                }
                Unresolved::NotExecutable => {
                    format!("--launcher: {program} is not executable: run chmod +x {program}")
                }
            })
        })?;
        if program.contains('/') {
            words[0] = resolved.to_string_lossy().into_owned();
        }
        self.launcher = words;
        Ok(())
    }
}

fn current_dir() -> Result<PathBuf, Error> {
    std::env::current_dir().map_err(|e| Error::Io {
        what: "read the current directory",
        path: ".".into(),
        source: e,
    })
}

/// Why a program could not be resolved.
enum Unresolved {
    Missing,
    Directory,
    NotExecutable,
    NotOnPath,
}

/// A program as the tests run it, from any directory: a path is made absolute from `cwd`
/// (with its `.` parts dropped: `./t.sh` becomes `/dir/t.sh`), a bare name is looked up on
/// `PATH`, or first in `cwd` when `bare_in_cwd` is set.
/// Whether the file at `path` starts as something the kernel runs: a `#!` line or an ELF
/// header.
fn looks_runnable(path: &Path) -> bool {
    let mut head = [0u8; 4];
    let n = std::fs::File::open(path)
        .and_then(|mut f| std::io::Read::read(&mut f, &mut head))
        .unwrap_or(0);
    head[..n].starts_with(b"#!") || head[..n].starts_with(b"\x7fELF")
}

fn resolve_program(program: &str, cwd: &Path, bare_in_cwd: bool) -> Result<PathBuf, Unresolved> {
    let local: PathBuf = cwd.join(program).components().collect();
    if program.contains('/') || (bare_in_cwd && !local.is_dir() && local.exists()) {
        if !local.exists() {
            return Err(Unresolved::Missing);
        }
        if local.is_dir() {
            return Err(Unresolved::Directory);
        }
        if !is_executable(&local) {
            return Err(Unresolved::NotExecutable);
        }
        Ok(local)
    } else {
        find_on_path(program).ok_or(Unresolved::NotOnPath)
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

/// What the original's first run printed and how it ended, for `same_output`.
#[derive(Clone, Debug)]
struct Reference {
    code: Option<i32>,
    stdout: (u64, u128),
    stderr: (u64, u128),
}

/// Runs the user's test; see the module doc for the contract.
pub struct TestCommand {
    spec: TestSpec,
    /// Candidates kept for `also_interesting` so far.
    also_kept: AtomicU64,
    /// The per-test time limit in milliseconds.
    timeout_ms: AtomicU64,
    reference: Mutex<Option<Reference>>,
}

/// What the test did beside a copy of the input's own directory, to explain an uninteresting
/// original (see [`TestCommand::diagnose`]).
#[derive(Clone, Debug)]
pub struct Diagnosis {
    /// The outcome of one more run as myhill runs the test (a fresh temporary directory), or
    /// why it could not run.
    pub again: Result<Outcome, String>,
    /// The outcome in a copy of the input's directory (run again, up to three times in
    /// all, when the first says interesting), or why it was not tried.
    pub beside_input: Result<Outcome, String>,
    /// Whether the test gave different verdicts on the same input in the same place: it
    /// said interesting on a run as myhill runs it, or said interesting and then not
    /// beside a copy of the input's directory. The original's failed check said not.
    pub flaky: bool,
    /// A shell command that reproduces myhill's run of the test in a fresh temporary copy.
    pub reproduce: String,
}

fn millis(d: Duration) -> u64 {
    u64::try_from(d.as_millis()).unwrap_or(u64::MAX).max(1)
}

fn setup(msg: String) -> OracleError {
    OracleError::Setup(msg)
}

/// A signal death as a shell would report it.
fn status_code(ended: ProcessEnd) -> Option<i32> {
    match ended {
        ProcessEnd::Exited(c) => Some(c),
        ProcessEnd::Signalled(s) => Some(128 + s),
        ProcessEnd::TimedOut => None,
    }
}

impl TestCommand {
    /// The oracle for `spec`.
    pub fn new(spec: TestSpec) -> TestCommand {
        let timeout = spec.timeout.unwrap_or(MAX_TIMEOUT);
        // A resumed run goes on numbering what an earlier one kept.
        let kept = spec.also_interesting.as_ref().map_or(0, |(_, dir)| {
            std::fs::read_dir(dir).map_or(0, |entries| entries.count() as u64)
        });
        TestCommand {
            also_kept: AtomicU64::new(kept),
            timeout_ms: AtomicU64::new(millis(timeout)),
            reference: Mutex::new(None),
            spec,
        }
    }

    /// The spec it runs.
    pub fn spec(&self) -> &TestSpec {
        &self.spec
    }

    /// The time limit of one test now.
    pub fn timeout(&self) -> Duration {
        Duration::from_millis(self.timeout_ms.load(Ordering::Relaxed))
    }

    /// Runs the test with the candidate already at `path` in `cwd`; outputs go to
    /// `capture_dir` when `keep` is set or the signature needs them.
    fn run_at(
        &self,
        path: &Path,
        cwd: &Path,
        capture_dir: &Path,
        keep: bool,
        cancel: &Cancel,
    ) -> Result<Outcome, OracleError> {
        let spec = &self.spec;
        let capture = keep || spec.signature.needs_output();
        let mut process = Process::new(spec.launcher.iter().chain(&spec.argv).cloned());
        if spec.input_mode.passes_path() {
            process.argv.push(path.into());
        }
        process.cwd = Some(cwd.to_path_buf());
        process.stdin = (spec.input_mode.feeds_stdin() && !spec.tree).then(|| path.to_path_buf());
        let (out_path, err_path) = (capture_dir.join("stdout"), capture_dir.join("stderr"));
        if capture {
            process.stdout = Some(out_path.clone());
            process.stderr = Some(err_path.clone());
        }
        process.timeout = Some(self.timeout());
        process.grace = spec.grace;
        if spec.private_tmpdir {
            let tmp = capture_dir.join("tmp");
            std::fs::create_dir_all(&tmp)
                .map_err(|e| setup(format!("cannot make {}: {e}", tmp.display())))?;
            process.env.push(("TMPDIR".into(), tmp.into()));
        }
        let finished = run(&process, cancel).map_err(|e| match e {
            RunError::Cancelled => OracleError::Cancelled,
            RunError::Spawn(e) => match spec.launcher.first() {
                Some(launcher) => setup(format!(
                    "cannot run the launcher {launcher:?}: {e} (check that it exists and is \
                     executable, e.g. chmod +x)"
                )),
                None => setup(format!(
                    "cannot run the test {:?}: {e} (check that it exists and is executable, e.g. chmod +x)",
                    spec.argv[0]
                )),
            },
            RunError::Wait(e) => setup(format!("cannot wait for the test: {e}")),
        })?;
        // The candidate's directory differs per test; hide it so outputs compare equal.
        let mask = cwd.as_os_str().as_encoded_bytes();
        let read = |p: &Path, re: Option<&StreamRegex>| {
            if capture {
                scan(p, mask, re, if keep { TAIL } else { 0 })
                    .map_err(|e| setup(format!("cannot read what the test printed: {e}")))
            } else {
                Ok(Default::default())
            }
        };
        let out = read(&out_path, spec.signature.stdout_regex.as_ref())?;
        let err = read(&err_path, spec.signature.stderr_regex.as_ref())?;
        let code = status_code(finished.ended);
        let verdict = if finished.ended == ProcessEnd::TimedOut {
            if spec.timeout_is_interesting {
                Verdict::Interesting
            } else {
                Verdict::TimedOut
            }
        } else if self.matches(code, &out, &err) {
            Verdict::Interesting
        } else {
            Verdict::NotInteresting
        };
        let output = |s: Scan| Output {
            len: s.digest.len,
            digest: s.digest.hash,
            tail: s.tail,
        };
        Ok(Outcome {
            verdict,
            duration: finished.duration,
            exit_code: match finished.ended {
                ProcessEnd::Exited(c) => Some(c),
                _ => None,
            },
            signal: match finished.ended {
                ProcessEnd::Signalled(s) => Some(s),
                _ => None,
            },
            stdout: output(out),
            stderr: output(err),
        })
    }

    fn matches(
        &self,
        code: Option<i32>,
        out: &crate::capture::Scan,
        err: &crate::capture::Scan,
    ) -> bool {
        let sig = &self.spec.signature;
        if !sig.is_set() {
            return code == Some(0);
        }
        let same = || {
            let reference = self.reference.lock().unwrap();
            // Before the original has been heard, its own run is the reference.
            reference.as_ref().is_none_or(|r| {
                r.code == code
                    && r.stdout == (out.digest.len, out.digest.hash)
                    && r.stderr == (err.digest.len, err.digest.hash)
            })
        };
        sig.expect_exit.is_none_or(|want| code == Some(want))
            && out.matched.unwrap_or(true)
            && err.matched.unwrap_or(true)
            && (!sig.same_output || same())
    }

    fn run_candidate(
        &self,
        candidate: &[u8],
        keep: bool,
        cancel: &Cancel,
    ) -> Result<Outcome, OracleError> {
        let mut builder = tempfile::Builder::new();
        // Named by this process, so a later run can remove what a killed one left.
        let prefix = test_dir_prefix(std::process::id());
        builder.prefix(&prefix);
        let root = match &self.spec.temp_root {
            Some(dir) => builder.tempdir_in(dir),
            None => builder.tempdir_in(default_temp_root()),
        }
        .map_err(|e| setup(format!("cannot make a temporary directory: {e}")))?;
        live_dirs().push(root.path().to_path_buf());
        let work = root.path().join("work");
        std::fs::create_dir(&work)
            .map_err(|e| setup(format!("cannot make {}: {e}", work.display())))?;
        let path = work.join(&self.spec.file_name);
        let written = if self.spec.tree {
            Archive::decode(candidate)
                .map_err(|e| setup(format!("the candidate is not a directory tree: {e}")))?
                .write_to(&path)
        } else {
            std::fs::write(&path, candidate)
        };
        written.map_err(|e| {
            setup(format!(
                "cannot write the candidate to {}: {e}",
                path.display()
            ))
        })?;
        let cwd = if self.spec.tree { &path } else { &work };
        let result = self.run_at(&path, cwd, root.path(), keep, cancel);
        remove_dir(root);
        if let (Ok(outcome), Some((want, dir))) = (&result, &self.spec.also_interesting) {
            let status = outcome.exit_code.or(outcome.signal.map(|s| 128 + s));
            if status == Some(*want) {
                self.keep_also_interesting(candidate, dir);
            }
        }
        result
    }

    /// Writes `bytes` (a tree: the directory it encodes) into `dir` as `NNNN-<hash>-<name>`, while fewer than
    /// [`ALSO_INTERESTING_MAX`] are kept. A write that fails is skipped: it is a courtesy.
    fn keep_also_interesting(&self, bytes: &[u8], dir: &Path) {
        let n = self.also_kept.fetch_add(1, Ordering::Relaxed);
        if n >= ALSO_INTERESTING_MAX {
            return;
        }
        let hash = xxhash_rust::xxh3::xxh3_64(bytes);
        let _ = std::fs::create_dir_all(dir);
        let name = format!("{n:04}-{hash:016x}-{}", self.spec.file_name);
        // A tree is kept as a tree, as the user would look at it.
        let _ = match Archive::decode(bytes) {
            Ok(tree) if self.spec.tree => tree.write_to(&dir.join(name)),
            _ => std::fs::write(dir.join(name), bytes),
        };
    }

    /// Explains an uninteresting original: runs the test once more as myhill runs it (a test
    /// that now says interesting is flaky), then beside a copy of `input`'s own directory
    /// (never in it: the test might write there), twice if the first run there says
    /// interesting (a second that does not means flaky, not a test that needs its
    /// directory); and writes a command that reproduces myhill's own run in a fresh
    /// temporary copy. The copy is skipped when the directory holds more than 2,000 entries
    /// or 64 MiB. Every test of the diagnosis runs through `run`, the caller's evaluator.
    pub fn diagnose(&self, input: &Path, run: &mut DiagnosisRunner) -> Diagnosis {
        let abs = std::fs::canonicalize(input).unwrap_or_else(|_| input.to_path_buf());
        let name = self.spec.file_name.clone();
        let dir = abs.parent().unwrap_or(Path::new("/")).to_path_buf();
        if self.spec.tree {
            return self.diagnose_tree(&abs, run);
        }
        let bytes = std::fs::read(&abs).map_err(|e| format!("cannot read the input: {e}"));
        let mut mine_again =
            || (bytes.as_ref().map_err(Clone::clone)).and_then(|b| run(self, b.as_slice()));
        let interesting =
            |o: &Result<Outcome, String>| o.as_ref().is_ok_and(|o| o.verdict.is_interesting());
        let again = mine_again();
        // Each side is run up to DIAGNOSIS_RUNS times: a test that says interesting half the
        // time would otherwise pass for one that needs its directory one time in eight.
        let changes_its_mind =
            interesting(&again) || (1..DIAGNOSIS_RUNS).any(|_| interesting(&mine_again()));
        let (beside_input, flaky) = if changes_its_mind {
            (Err("the test is flaky".to_string()), true)
        } else {
            let beside = BesideInput {
                command: self,
                dir: dir.clone(),
                name: name.clone(),
            };
            let mut beside_again =
                || (bytes.as_ref().map_err(Clone::clone)).and_then(|b| run(&beside, b.as_slice()));
            let first = beside_again();
            let flaky =
                interesting(&first) && (1..DIAGNOSIS_RUNS).any(|_| !interesting(&beside_again()));
            (first, flaky)
        };
        let quote = |w: &str| {
            shlex::try_quote(w)
                .map(|q| q.into_owned())
                .unwrap_or_else(|_| w.to_string())
        };
        let mut words: Vec<String> = (self.spec.launcher.iter())
            .chain(&self.spec.argv)
            .map(|w| quote(w))
            .collect();
        if self.spec.input_mode.passes_path() {
            words.push(quote(&name));
        }
        let stdin = if self.spec.input_mode.feeds_stdin() {
            format!(" < {}", quote(&name))
        } else {
            " < /dev/null".to_string()
        };
        let reproduce = format!(
            "d=$(mktemp -d) && cp {} \"$d\"/{} && cd \"$d\" && {}{stdin}; echo \"exit status $?\"",
            quote(&abs.to_string_lossy()),
            quote(&name),
            words.join(" ")
        );
        Diagnosis {
            again,
            beside_input,
            flaky,
            reproduce,
        }
    }
}

/// How a diagnosis runs each of its tests: the oracle (the test as myhill runs it, or beside
/// a copy of the input's directory) and the bytes, to an outcome or why there is none. The
/// caller passes its evaluator, so the diagnosis's tests are run and counted as every other.
pub type DiagnosisRunner<'r> = dyn FnMut(&dyn Oracle, &[u8]) -> Result<Outcome, String> + 'r;

/// The test run beside a copy of the input's own directory (never in it: the test might
/// write there), the candidate under the input's name; outputs kept. The copy is refused
/// when the directory holds more than 2,000 entries or 64 MiB.
struct BesideInput<'c> {
    command: &'c TestCommand,
    dir: PathBuf,
    name: String,
}

impl Oracle for BesideInput<'_> {
    fn test(&self, candidate: &[u8], cancel: &Cancel) -> Result<Outcome, OracleError> {
        let root = tempfile::Builder::new()
            .prefix("myhill-diagnose-")
            .tempdir_in(default_temp_root())
            .map_err(|e| setup(format!("cannot make a temporary directory: {e}")))?;
        let copy = root.path().join("dir");
        let mut budget = CopyBudget {
            entries: 2000,
            bytes: 64 << 20,
            // The temporary root may lie inside the input's directory: never copy it.
            skip: std::fs::canonicalize(root.path()).unwrap_or(root.path().to_path_buf()),
        };
        let copied = copy_tree(&self.dir, &copy, &mut budget, 0)
            .map_err(|e| setup(format!("{} was not copied: {e}", self.dir.display())));
        let outcome = copied.and_then(|()| {
            let path = copy.join(&self.name);
            std::fs::write(&path, candidate)
                .map_err(|e| setup(format!("cannot copy the input: {e}")))?;
            let capture = root.path().join("capture");
            std::fs::create_dir(&capture).map_err(|e| setup(e.to_string()))?;
            self.command.run_at(&path, &copy, &capture, true, cancel)
        });
        remove_dir(root);
        outcome
    }
}

/// How many times the diagnosis runs the test on each side (as myhill runs it, and beside a
/// copy of the input's directory) before it calls the test dependent on its directory.
const DIAGNOSIS_RUNS: usize = 3;

impl TestCommand {
    /// [`TestCommand::diagnose`] for a directory: the test already ran in a copy of it, so
    /// it runs once more that way, and the command that reproduces that run is given.
    fn diagnose_tree(&self, abs: &Path, run: &mut DiagnosisRunner) -> Diagnosis {
        let again = Archive::from_dir(abs)
            .map_err(|e| e.to_string())
            .and_then(|tree| run(self, &tree.encode()));
        let flaky = again.as_ref().is_ok_and(|o| o.verdict.is_interesting());
        let quote = |w: &str| {
            shlex::try_quote(w)
                .map(|q| q.into_owned())
                .unwrap_or_else(|_| w.to_string())
        };
        let name = quote(&self.spec.file_name);
        let mut words: Vec<String> = (self.spec.launcher.iter())
            .chain(&self.spec.argv)
            .map(|w| quote(w))
            .collect();
        if self.spec.input_mode.passes_path() {
            words.push(format!("\"$d\"/{name}"));
        }
        let reproduce = format!(
            "d=$(mktemp -d) && cp -a {} \"$d\"/{name} && cd \"$d\"/{name} && {} < /dev/null; echo \"exit status $?\"",
            quote(&abs.to_string_lossy()),
            words.join(" ")
        );
        Diagnosis {
            again,
            beside_input: Err("the input is a directory, and the test ran in a copy of it".into()),
            flaky,
            reproduce,
        }
    }
}

struct CopyBudget {
    entries: usize,
    bytes: u64,
    skip: PathBuf,
}

/// Copies a directory tree (files, directories and symbolic links) within a budget.
fn copy_tree(from: &Path, to: &Path, budget: &mut CopyBudget, depth: usize) -> Result<(), String> {
    if depth > 16 {
        return Err("it is nested too deeply".into());
    }
    std::fs::create_dir(to).map_err(|e| e.to_string())?;
    let entries = std::fs::read_dir(from).map_err(|e| e.to_string())?;
    for entry in entries {
        let entry = entry.map_err(|e| e.to_string())?;
        budget.entries = budget
            .entries
            .checked_sub(1)
            .ok_or("it holds more than 2,000 entries")?;
        if budget.skip.starts_with(entry.path()) {
            continue;
        }
        let kind = entry.file_type().map_err(|e| e.to_string())?;
        let target = to.join(entry.file_name());
        if kind.is_dir() {
            copy_tree(&entry.path(), &target, budget, depth + 1)?;
        } else if kind.is_symlink() {
            let link = std::fs::read_link(entry.path()).map_err(|e| e.to_string())?;
            std::os::unix::fs::symlink(link, target).map_err(|e| e.to_string())?;
        } else if kind.is_file() {
            let len = entry.metadata().map_err(|e| e.to_string())?.len();
            budget.bytes = budget
                .bytes
                .checked_sub(len)
                .ok_or("it holds more than 64 MiB")?;
            std::fs::copy(entry.path(), target).map_err(|e| e.to_string())?;
        }
    }
    Ok(())
}

/// How the directories of the tests a process runs begin: `myhill-<pid>-`.
fn test_dir_prefix(pid: u32) -> String {
    format!("myhill-{pid}-")
}

impl TestCommand {
    /// Removes the test directories that the dead process `pid` left in this test's
    /// temporary root (a run killed by SIGKILL, now resumed). Returns how many it removed;
    /// none while a process `pid` is alive.
    pub fn remove_test_dirs_of(&self, pid: u32) -> usize {
        // SAFETY: signal 0 sends nothing; it only asks whether the process exists.
        let alive = unsafe { libc::kill(pid as libc::pid_t, 0) == 0 };
        if alive || pid == std::process::id() {
            return 0;
        }
        let root = self
            .spec
            .temp_root
            .clone()
            .unwrap_or_else(default_temp_root);
        let prefix = test_dir_prefix(pid);
        let Ok(entries) = std::fs::read_dir(&root) else {
            return 0;
        };
        let mut removed = 0;
        for entry in entries.flatten() {
            let ours = entry
                .file_name()
                .to_str()
                .is_some_and(|n| n.starts_with(&prefix));
            if ours && entry.file_type().is_ok_and(|t| t.is_dir()) {
                make_writable(&entry.path());
                removed += usize::from(std::fs::remove_dir_all(entry.path()).is_ok());
            }
        }
        removed
    }
}

/// The directories of the tests running now, for [`remove_test_dirs`].
static LIVE_DIRS: Mutex<Vec<PathBuf>> = Mutex::new(Vec::new());

fn live_dirs() -> std::sync::MutexGuard<'static, Vec<PathBuf>> {
    LIVE_DIRS.lock().unwrap_or_else(|e| e.into_inner())
}

/// Removes the directories of the tests running now, for a program that must exit this
/// moment (a third Ctrl-C) after killing them ([`crate::process::kill_running`]): no destructor runs
/// on that exit. Returns how many it removed.
pub fn remove_test_dirs() -> usize {
    let dirs = std::mem::take(&mut *live_dirs());
    // A test killed a moment ago may still be dying and writing: a second sweep catches it.
    for round in 0..2 {
        if round > 0 {
            std::thread::sleep(Duration::from_millis(20));
        }
        for dir in &dirs {
            make_writable(dir);
            let _ = std::fs::remove_dir_all(dir);
        }
    }
    dirs.iter().filter(|d| !d.exists()).count()
}

/// Removes a test's directory, even one the test left read-only.
fn remove_dir(dir: tempfile::TempDir) {
    let path = dir.path().to_path_buf();
    {
        let mut live = live_dirs();
        if let Some(k) = live.iter().position(|d| *d == path) {
            live.swap_remove(k);
        }
    }
    if dir.close().is_err() {
        make_writable(&path);
        let _ = std::fs::remove_dir_all(&path);
    }
}

fn make_writable(dir: &Path) {
    let _ = std::fs::set_permissions(dir, std::fs::Permissions::from_mode(0o700));
    if let Ok(entries) = std::fs::read_dir(dir) {
        for entry in entries.flatten() {
            if entry.file_type().is_ok_and(|t| t.is_dir()) {
                make_writable(&entry.path());
            }
        }
    }
}

impl Oracle for TestCommand {
    fn test(&self, candidate: &[u8], cancel: &Cancel) -> Result<Outcome, OracleError> {
        self.run_candidate(candidate, false, cancel)
    }

    fn test_verbose(&self, candidate: &[u8], cancel: &Cancel) -> Result<Outcome, OracleError> {
        self.run_candidate(candidate, true, cancel)
    }

    fn calibrate(&self, first: &Outcome) {
        if self.spec.timeout.is_none() {
            let timeout = dynamic_timeout(first.duration) * self.spec.sharing.max(1);
            self.timeout_ms
                .store(millis(timeout.min(LONGEST_TIMEOUT)), Ordering::Relaxed);
        }
        if self.spec.signature.same_output {
            *self.reference.lock().unwrap() = Some(Reference {
                code: first.exit_code.or(first.signal.map(|s| 128 + s)),
                stdout: (first.stdout.len, first.stdout.digest),
                stderr: (first.stderr.len, first.stderr.digest),
            });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Sixteen CPU-bound tests on two cores each run about eight times slower than the first
    /// check measured: a timeout of ten first runs turned some into timeouts, and a timed-out
    /// re-run of the best rolled the reduction back.
    #[test]
    fn the_dynamic_timeout_grows_with_the_tests_sharing_a_core() {
        let mut spec = TestSpec::new(vec!["true".into()], "input");
        let first = Outcome {
            duration: Duration::from_millis(300),
            ..Outcome::of(Verdict::Interesting)
        };
        let alone = TestCommand::new(spec.clone());
        alone.calibrate(&first);
        assert_eq!(alone.timeout(), Duration::from_secs(3));
        spec.sharing = 8;
        let shared = TestCommand::new(spec);
        shared.calibrate(&first);
        assert_eq!(shared.timeout(), Duration::from_secs(24));
    }
}
