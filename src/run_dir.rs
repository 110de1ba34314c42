//! A run directory: what a long reduction keeps on disk so it can be followed, audited and resumed.
//!
//! Main types: [`RunDir`] (the directory, fed the reduction's [`Event`]s), [`RunInfo`] (its
//! `meta.json`), [`VerdictFile`] (the persistent verdict cache, a [`VerdictStore`]) and
//! [`Recorded`]. A run directory holds:
//!
//! | file | what |
//! | --- | --- |
//! | `meta.json` | version, the command line and working directory, input, output and backup paths, the test's identity, the first check, status, the best's size and hash |
//! | `original` | the input as it was |
//! | `best` | the best so far, replaced atomically on every improvement |
//! | `steps.jsonl` | every accepted step (and rollback) as an edit of the previous best: cut `[from, to)`, insert these bytes; its pass, size, tests run and seconds since the start |
//! | `tests.jsonl` | one line per test: seconds since the start, pass, candidate hash, size, verdict, milliseconds |
//! | `verdicts` | the verdict cache: `<hash> I`, `N` or `T` per test, `<hash>#<n> V` per re-run |
//! | `also-interesting/` | candidates on which the test exited with `--also-interesting`'s status |
//! | `lock` | locked (flock) by the process using the run, with its id |
//! | `MYHILL-RUN` | the [`MARKER`]: this is a run directory |
//!
//! A run directory is made whole under a temporary name and renamed into place, never in a
//! directory of other files, and it is locked while a process uses it, so a run cannot be
//! resumed twice at once. [`prune_runs`] removes old ones.
//!
//! Resuming replays the reduction from the original with the verdict cache loaded: every
//! verdict on disk is recalled (and counted as the test it was), so the replay takes the same
//! decisions as the first run, reaches its best without running a test, and goes on from
//! there. Only the tests in flight when the run died are run again.
//!
//! ```
//! use myhill::{FnOracle, ReduceOptions, Reduction, Strategy, runs::{RunDir, RunInfo}};
//! let dir = tempfile::tempdir().unwrap();
//! let oracle = FnOracle::new(|b: &[u8]| b.contains(&b'!'));
//! let input = b"hello, world!".to_vec();
//! let info = RunInfo::new(vec!["t.sh".into(), "in.txt".into()], 1);
//! let mut run = RunDir::create(&dir.path().join("run"), info, &input).unwrap();
//! let mut reduction = Reduction::new(input, &oracle, ReduceOptions::default());
//! reduction.set_store(run.verdicts().unwrap());
//! reduction.on_event(move |e| { run.record(e); });
//! let finished = reduction.run(&mut Strategy::named("default").unwrap().schedule()).unwrap();
//! drop(reduction); // and with it the directory's lock
//! let (_, info) = RunDir::open(&dir.path().join("run")).unwrap();
//! assert_eq!(info.best_size, Some(finished.best.len()));
//! ```
//!
//! Limits: each file is bounded (`tests.jsonl` and the edits of `steps.jsonl` stop at
//! [`LOG_LIMIT`] bytes each; `verdicts` takes about 36 bytes a test; `also-interesting/`
//! keeps at most 1000 candidates); old run directories are removed by [`prune_runs`], which the
//! binary calls when it makes a new one under [`default_runs_root`].
//! A replay takes the first run's decisions only if the passes are deterministic: a pass that
//! stops a SAT solve on a clock (the DFA pass) may decide differently when the machine is
//! slower.

use crate::error::Error;
use crate::eval::{VerdictStore, content_key};
use crate::oracle::{Outcome, Output, Verdict};
use crate::report::Event;
use serde_json::{Value, json};
use std::collections::HashMap;
use std::fs::{File, OpenOptions};
use std::io::{Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

/// The most bytes `tests.jsonl` and the edits in `steps.jsonl` may take each.
pub const LOG_LIMIT: u64 = 64 << 20;

/// The format of `meta.json`; a run directory of another format is refused.
const FORMAT: u64 = 1;

/// The file that marks a directory as a run directory: `--run-dir` writes into no directory
/// of other files, and `myhill runs remove` removes no directory without it.
pub const MARKER: &str = "MYHILL-RUN";

const MARKER_TEXT: &str = "This directory is a myhill run directory (see `myhill runs list`).\n";

/// How a run directory under construction is named, beside where it goes.
const NEW_PREFIX: &str = ".myhill-new-run-";

/// Opens and locks `dir/lock` (flock, released when the process ends, however it ends), and
/// writes this process's id in it; a run directory in use by a live process is refused.
fn lock_in(dir: &Path) -> Result<File, Error> {
    let p = dir.join("lock");
    let mut file = OpenOptions::new()
        .create(true)
        .truncate(false)
        .read(true)
        .write(true)
        .open(&p)
        .map_err(|source| Error::Io {
            what: "open the lock of",
            path: p.clone(),
            source,
        })?;
    // A process killed a moment ago may still hold the lock through a child it was starting
    // (forked, not yet exec'd): the child goes at once, so a dead holder is waited for, briefly.
    let started = Instant::now();
    let (locked, holder) = loop {
        // SAFETY: flock on a descriptor this function owns.
        let locked = unsafe {
            libc::flock(
                std::os::fd::AsRawFd::as_raw_fd(&file),
                libc::LOCK_EX | libc::LOCK_NB,
            )
        };
        let mut holder = String::new();
        if locked != 0 {
            let _ = file.seek(SeekFrom::Start(0));
            let _ = file.read_to_string(&mut holder);
        }
        // SAFETY: signal 0 sends nothing; it only asks whether the process exists.
        let dead = holder.trim().parse::<i32>().is_ok_and(|pid| unsafe {
            libc::kill(pid, 0) != 0
                && std::io::Error::last_os_error().raw_os_error() == Some(libc::ESRCH)
        });
        if locked == 0 || !dead || started.elapsed() > Duration::from_secs(5) {
            break (locked, holder);
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    if locked != 0 {
        let holder = holder.trim();
        let who = if holder.is_empty() {
            "another myhill".to_string()
        } else {
            format!("another myhill (process {holder})")
        };
        return Err(Error::RunDir(format!(
            "{} is in use by {who}: wait for it to end or stop it (Ctrl-C), then resume",
            dir.display()
        )));
    }
    let _ = file.set_len(0);
    let _ = file.write_all(format!("{}\n", std::process::id()).as_bytes());
    Ok(file)
}

/// Whether the run directory at `dir` is locked by a live process.
pub fn run_in_use(dir: &Path) -> bool {
    let Ok(file) = File::open(dir.join("lock")) else {
        return false;
    };
    // SAFETY: flock on a descriptor this function owns; closing it releases the lock.
    unsafe {
        libc::flock(
            std::os::fd::AsRawFd::as_raw_fd(&file),
            libc::LOCK_EX | libc::LOCK_NB,
        ) != 0
    }
}

/// Where run directories go when no `--run-dir` is given: `$XDG_STATE_HOME/myhill/runs`, or
/// `~/.local/state/myhill/runs`; `None` when neither variable is set.
pub fn default_runs_root() -> Option<PathBuf> {
    let state = std::env::var_os("XDG_STATE_HOME")
        .filter(|s| !s.is_empty())
        .map(PathBuf::from)
        .filter(|p| p.is_absolute())
        .or_else(|| {
            std::env::var_os("HOME")
                .filter(|h| !h.is_empty())
                .map(|h| PathBuf::from(h).join(".local/state"))
        })?;
    Some(state.join("myhill").join("runs"))
}

/// A fresh name for a run directory under `root`: the UTC time, the input's name and a few
/// random characters, so names sort by start time.
pub fn fresh_run_path(root: &Path, input_name: &str) -> PathBuf {
    let now = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .unwrap_or_default();
    let name: String = input_name
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '.' || c == '-' {
                c
            } else {
                '_'
            }
        })
        .take(40)
        .collect();
    let salt = (content_key(format!("{now:?}{}", std::process::id()).as_bytes()) & 0xffff) as u16;
    root.join(format!("{}-{name}-{salt:04x}", utc_stamp(now.as_secs())))
}

/// `YYYYmmdd-HHMMSS` of a Unix time, in UTC.
fn utc_stamp(secs: u64) -> String {
    let days = (secs / 86_400) as i64;
    let rem = secs % 86_400;
    // Howard Hinnant's days-to-civil conversion.
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!(
        "{year:04}{month:02}{day:02}-{:02}{:02}{:02}",
        rem / 3600,
        rem % 3600 / 60,
        rem % 60
    )
}

/// Where a run stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RunStatus {
    /// Under way, or killed (nothing marked it otherwise).
    Running,
    /// Stopped early by the user, the budget or the test; resumable.
    Stopped,
    /// Reduced to the end.
    Finished,
}

impl RunStatus {
    fn name(self) -> &'static str {
        match self {
            RunStatus::Running => "running",
            RunStatus::Stopped => "stopped",
            RunStatus::Finished => "finished",
        }
    }

    fn parse(s: &str) -> Option<RunStatus> {
        [RunStatus::Running, RunStatus::Stopped, RunStatus::Finished]
            .into_iter()
            .find(|r| r.name() == s)
    }
}

/// What `meta.json` says of a run.
#[derive(Clone, Debug)]
pub struct RunInfo {
    /// The format of the directory.
    pub format: u64,
    /// The myhill version that made it.
    pub version: String,
    /// The `reduce` arguments as given (without the program name and `reduce`).
    pub args: Vec<String>,
    /// The working directory they were given in.
    pub cwd: PathBuf,
    /// The input, absolute.
    pub input: PathBuf,
    /// Where the result goes (the input itself when reducing in place).
    pub output: PathBuf,
    /// Where the original was kept, when reducing in place.
    pub backup: Option<PathBuf>,
    /// The test's identity ([`crate::TestSpec::identity`]): verdicts are reused only under it.
    pub test: u128,
    /// The original's content key.
    pub original: u128,
    /// The outcomes of the first check, once it passed.
    pub first_check: Vec<Outcome>,
    /// Where the run stands.
    pub status: RunStatus,
    /// The best's size, once the reduction started.
    pub best_size: Option<usize>,
    /// The best's content key.
    pub best_hash: Option<u128>,
    /// Unix time of the start, in seconds.
    pub started: u64,
}

impl RunInfo {
    /// The record of a new run of `args` (the `reduce` arguments) for a test of identity
    /// `test`, made in the current directory; the paths are filled in by the caller.
    pub fn new(args: Vec<String>, test: u128) -> RunInfo {
        RunInfo {
            format: FORMAT,
            version: env!("CARGO_PKG_VERSION").to_string(),
            args,
            cwd: std::env::current_dir().unwrap_or_default(),
            input: PathBuf::new(),
            output: PathBuf::new(),
            backup: None,
            test,
            original: 0,
            first_check: Vec::new(),
            status: RunStatus::Running,
            best_size: None,
            best_hash: None,
            started: SystemTime::now()
                .duration_since(UNIX_EPOCH)
                .map_or(0, |d| d.as_secs()),
        }
    }

    fn to_json(&self) -> Value {
        json!({
            "format": self.format,
            "version": self.version,
            "args": self.args,
            "cwd": self.cwd,
            "input": self.input,
            "output": self.output,
            "backup": self.backup,
            "test": hex(self.test),
            "original": hex(self.original),
            "first_check": self.first_check.iter().map(outcome_json).collect::<Vec<_>>(),
            "status": self.status.name(),
            "best_size": self.best_size,
            "best_hash": self.best_hash.map(hex),
            "started": self.started,
        })
    }

    fn from_json(v: &Value) -> Option<RunInfo> {
        let path = |k: &str| v.get(k)?.as_str().map(PathBuf::from);
        Some(RunInfo {
            format: v.get("format")?.as_u64()?,
            version: v.get("version")?.as_str()?.to_string(),
            args: v
                .get("args")?
                .as_array()?
                .iter()
                .map(|a| a.as_str().map(str::to_string))
                .collect::<Option<_>>()?,
            cwd: path("cwd")?,
            input: path("input")?,
            output: path("output")?,
            backup: path("backup"),
            test: unhex(v.get("test")?.as_str()?)?,
            original: unhex(v.get("original")?.as_str()?)?,
            first_check: v
                .get("first_check")?
                .as_array()?
                .iter()
                .map(outcome_of)
                .collect::<Option<_>>()?,
            status: RunStatus::parse(v.get("status")?.as_str()?)?,
            best_size: v
                .get("best_size")
                .and_then(Value::as_u64)
                .map(|n| n as usize),
            best_hash: v.get("best_hash").and_then(Value::as_str).and_then(unhex),
            started: v.get("started")?.as_u64()?,
        })
    }
}

fn hex(key: u128) -> String {
    format!("{key:032x}")
}

fn unhex(s: &str) -> Option<u128> {
    u128::from_str_radix(s, 16).ok()
}

fn verdict_letter(v: Verdict) -> char {
    match v {
        Verdict::Interesting => 'I',
        Verdict::NotInteresting => 'N',
        Verdict::TimedOut => 'T',
    }
}

fn verdict_of(letter: &str) -> Option<Verdict> {
    match letter {
        "I" => Some(Verdict::Interesting),
        "N" => Some(Verdict::NotInteresting),
        "T" => Some(Verdict::TimedOut),
        _ => None,
    }
}

fn verdict_word(v: Verdict) -> &'static str {
    match v {
        Verdict::Interesting => "interesting",
        Verdict::NotInteresting => "not",
        Verdict::TimedOut => "timeout",
    }
}

fn output_json(o: &Output) -> Value {
    json!({
        "len": o.len,
        "digest": hex(o.digest),
        "tail": String::from_utf8_lossy(&o.tail),
    })
}

fn output_of(v: &Value) -> Option<Output> {
    Some(Output {
        len: v.get("len")?.as_u64()?,
        digest: unhex(v.get("digest")?.as_str()?)?,
        tail: v.get("tail")?.as_str()?.as_bytes().to_vec(),
    })
}

fn outcome_json(o: &Outcome) -> Value {
    json!({
        "verdict": verdict_word(o.verdict),
        "micros": o.duration.as_micros() as u64,
        "exit_code": o.exit_code,
        "signal": o.signal,
        "stdout": output_json(&o.stdout),
        "stderr": output_json(&o.stderr),
    })
}

fn outcome_of(v: &Value) -> Option<Outcome> {
    let verdict = match v.get("verdict")?.as_str()? {
        "interesting" => Verdict::Interesting,
        "not" => Verdict::NotInteresting,
        "timeout" => Verdict::TimedOut,
        _ => return None,
    };
    let int = |k: &str| v.get(k).and_then(Value::as_i64).map(|n| n as i32);
    Some(Outcome {
        verdict,
        duration: Duration::from_micros(v.get("micros")?.as_u64()?),
        exit_code: int("exit_code"),
        signal: int("signal"),
        stdout: output_of(v.get("stdout")?)?,
        stderr: output_of(v.get("stderr")?)?,
    })
}

/// Appends `line` to `file` in one write, so a killed process leaves whole lines (the page
/// cache keeps what was written when the process dies; only a crash of the machine loses it).
fn append_line(file: &mut File, line: &str) -> std::io::Result<()> {
    let mut bytes = Vec::with_capacity(line.len() + 1);
    bytes.extend_from_slice(line.as_bytes());
    bytes.push(b'\n');
    file.write_all(&bytes)
}

/// Opens `path` for appending lines; a torn last line (the process was killed in the middle
/// of a write) is ended first, so the next line starts on its own.
fn open_append(path: &Path) -> std::io::Result<File> {
    let mut file = OpenOptions::new()
        .create(true)
        .append(true)
        .read(true)
        .open(path)?;
    let len = file.metadata()?.len();
    if len > 0 {
        let mut last = [0u8];
        file.seek(SeekFrom::Start(len - 1))?;
        file.read_exact(&mut last)?;
        if last[0] != b'\n' {
            file.write_all(b"\n")?;
        }
    }
    Ok(file)
}

/// Writes `bytes` to `path` through a temporary file in the same directory and a rename.
fn write_atomic(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    let dir = path.parent().unwrap_or(Path::new("."));
    let mut tmp = tempfile::Builder::new()
        .prefix(".myhill-")
        .tempfile_in(dir)?;
    tmp.write_all(bytes)?;
    tmp.as_file().sync_data()?;
    tmp.persist(path).map_err(|e| e.error)?;
    Ok(())
}

/// The persistent verdict cache of a run directory: every verdict a test gave, by the
/// candidate's content key, appended as it comes.
pub struct VerdictFile {
    file: File,
    verdicts: HashMap<u128, Verdict>,
    reruns: HashMap<(u128, u32), Verdict>,
    /// The first write error, after which nothing more is written.
    failed: bool,
}

impl VerdictFile {
    /// Opens (or makes) the cache at `path` and loads what it holds; a torn last line (the
    /// process was killed in the middle of a write) is skipped.
    pub fn open(path: &Path) -> std::io::Result<VerdictFile> {
        let mut verdicts = HashMap::new();
        let mut reruns = HashMap::new();
        if let Ok(text) = std::fs::read(path) {
            for line in text.split(|&b| b == b'\n') {
                let Ok(line) = std::str::from_utf8(line) else {
                    continue;
                };
                let Some((key, letter)) = line.split_once(' ') else {
                    continue;
                };
                let Some(verdict) = verdict_of(letter) else {
                    continue;
                };
                match key.split_once('#') {
                    Some((k, n)) => {
                        if let (Some(k), Ok(n)) = (unhex(k), n.parse()) {
                            reruns.insert((k, n), verdict);
                        }
                    }
                    None => {
                        if key.len() == 32
                            && let Some(k) = unhex(key)
                        {
                            verdicts.insert(k, verdict);
                        }
                    }
                }
            }
        }
        Ok(VerdictFile {
            file: open_append(path)?,
            verdicts,
            reruns,
            failed: false,
        })
    }

    /// How many verdicts it holds (re-runs apart).
    pub fn len(&self) -> usize {
        self.verdicts.len()
    }

    /// Whether it holds none.
    pub fn is_empty(&self) -> bool {
        self.verdicts.is_empty()
    }

    fn append(&mut self, line: String) {
        if !self.failed && append_line(&mut self.file, &line).is_err() {
            self.failed = true;
        }
    }
}

impl VerdictStore for VerdictFile {
    fn recall(&self, key: u128) -> Option<Verdict> {
        self.verdicts.get(&key).copied()
    }

    fn remember(&mut self, key: u128, verdict: Verdict) {
        if self.verdicts.insert(key, verdict) != Some(verdict) {
            self.append(format!("{} {}", hex(key), verdict_letter(verdict)));
        }
    }

    fn recall_rerun(&self, key: u128, nth: u32) -> Option<Verdict> {
        self.reruns.get(&(key, nth)).copied()
    }

    fn remember_rerun(&mut self, key: u128, nth: u32, verdict: Verdict) {
        self.reruns.insert((key, nth), verdict);
        self.append(format!("{}#{nth} {}", hex(key), verdict_letter(verdict)));
    }
}

/// What [`RunDir::record`] did with a change of the best.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Recorded {
    /// Not a change of the best.
    Other,
    /// A step the directory already held (a resumed run replaying): the best on disk is
    /// already as good or better, so nothing should be written.
    Replayed,
    /// A new best, now in `best` and `steps.jsonl`.
    New,
}

/// An open run directory; see the module doc.
pub struct RunDir {
    path: PathBuf,
    info: RunInfo,
    tests: File,
    tests_written: u64,
    steps: File,
    steps_written: u64,
    /// Steps the directory held when it was opened, and how many the replay has passed.
    recorded: Vec<(usize, u128)>,
    replayed: usize,
    /// The best's size, to diff the next one against the `best` file.
    best_size: usize,
    pass: String,
    started: Instant,
    /// The first error, reported once by [`RunDir::error`].
    error: Option<String>,
    /// The open `lock` file, locked while this value lives.
    _lock: File,
    /// The process that used the run before it was opened again (from its lock), if known.
    previous_process: Option<u32>,
}

impl RunDir {
    /// Makes a run directory at `path` for a reduction of `original` (its parents too), and
    /// locks it. `path` must not exist yet or be an empty directory: the directory is filled
    /// under a temporary name beside it and renamed into place, so a directory that exists is
    /// either a whole run directory (with its [`MARKER`]) or none; a directory of other files
    /// is never written into.
    pub fn create(path: &Path, mut info: RunInfo, original: &[u8]) -> Result<RunDir, Error> {
        let io = |what: &'static str, p: &Path| {
            let p = p.to_path_buf();
            move |source| Error::Io {
                what,
                path: p,
                source,
            }
        };
        if path.join(MARKER).exists() || path.join("meta.json").exists() {
            return Err(Error::RunDir(format!(
                "{} already holds a run: resume it with --resume {0}, or give another --run-dir",
                path.display()
            )));
        }
        match std::fs::read_dir(path).map(|mut entries| entries.next().is_some()) {
            Ok(true) => {
                return Err(Error::RunDir(format!(
                    "{} is a directory of other files, not a run directory: give --run-dir a \
                     new or empty directory (myhill would write original, best and verdicts \
                     there)",
                    path.display()
                )));
            }
            Ok(false) => {}
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
            Err(e) if e.kind() == std::io::ErrorKind::NotADirectory => {
                return Err(Error::RunDir(format!(
                    "{} is a file, not a run directory: give --run-dir a new or empty directory",
                    path.display()
                )));
            }
            Err(e) => return Err(io("use the run directory", path)(e)),
        }
        let parent = path
            .parent()
            .filter(|p| !p.as_os_str().is_empty())
            .unwrap_or(Path::new("."));
        std::fs::create_dir_all(parent).map_err(io("make the run directory's parent", parent))?;
        remove_dead_new_runs(parent);
        // The process's id in the name tells a later run whether the maker is gone: one
        // killed before the rename leaves this directory behind.
        let tmp = tempfile::Builder::new()
            .prefix(&format!("{NEW_PREFIX}{}-", std::process::id()))
            .tempdir_in(parent)
            .map_err(io("make the run directory in", parent))?;
        let new = tmp.path();
        let lock = lock_in(new)?;
        std::fs::write(new.join(MARKER), MARKER_TEXT).map_err(io("write the marker in", new))?;
        std::fs::create_dir(new.join("also-interesting"))
            .map_err(io("make the run directory", path))?;
        info.original = content_key(original);
        write_atomic(&new.join("original"), original).map_err(io("write the original to", path))?;
        write_atomic(&new.join("best"), original).map_err(io("write the best to", path))?;
        let mut dir = RunDir::with_files(new, info, Vec::new(), lock)?;
        dir.best_size = original.len();
        dir.save_info()?;
        // The files stay open across the rename: they are the same files under the new name.
        // Renaming onto an empty directory replaces it; onto anything else it fails.
        std::fs::rename(new, path).map_err(|e| {
            if path.join(MARKER).exists() {
                Error::RunDir(format!(
                    "{} already holds a run: resume it with --resume {0}, or give another \
                     --run-dir",
                    path.display()
                ))
            } else {
                io("make the run directory", path)(e)
            }
        })?;
        let _ = tmp.keep();
        dir.path = path.to_path_buf();
        Ok(dir)
    }

    /// Opens the run directory at `path` to resume it; returns it with what `meta.json` says.
    pub fn open(path: &Path) -> Result<(RunDir, RunInfo), Error> {
        let meta = path.join("meta.json");
        let text = std::fs::read(&meta).map_err(|e| {
            Error::RunDir(format!(
                "{} is not a run directory ({}: {e}): give the directory myhill printed at the \
                 start of the run",
                path.display(),
                meta.display()
            ))
        })?;
        let info = serde_json::from_slice::<Value>(&text)
            .ok()
            .and_then(|v| {
                if v.get("format")?.as_u64()? != FORMAT {
                    return None;
                }
                RunInfo::from_json(&v)
            })
            .ok_or_else(|| {
                Error::RunDir(format!(
                    "{} is damaged or from another version of myhill: start a new run from its \
                     best ({})",
                    meta.display(),
                    path.join("best").display()
                ))
            })?;
        let steps = std::fs::read(path.join("steps.jsonl")).unwrap_or_default();
        let recorded: Vec<(usize, u128)> = steps
            .split(|&b| b == b'\n')
            .filter_map(|line| {
                let v: Value = serde_json::from_slice(line).ok()?;
                Some((
                    v.get("size")?.as_u64()? as usize,
                    unhex(v.get("hash")?.as_str()?)?,
                ))
            })
            .collect();
        // The process that used the run last, as its lock says (before this one's id
        // replaces it): a dead one's test directories may be left.
        let previous = std::fs::read_to_string(path.join("lock"))
            .ok()
            .and_then(|t| t.trim().parse::<u32>().ok());
        let lock = lock_in(path)?;
        if let Some(parent) = path.parent() {
            remove_dead_new_runs(parent);
        }
        let mut dir = RunDir::with_files(path, info.clone(), recorded, lock)?;
        dir.previous_process = previous.filter(|&p| p != std::process::id());
        dir.best_size = std::fs::metadata(path.join("best"))
            .map(|m| m.len() as usize)
            .unwrap_or(0);
        Ok((dir, info))
    }

    fn with_files(
        path: &Path,
        info: RunInfo,
        recorded: Vec<(usize, u128)>,
        lock: File,
    ) -> Result<RunDir, Error> {
        let open = |name: &str| {
            let p = path.join(name);
            let file = open_append(&p).map_err(|source| Error::Io {
                what: "write to the run directory",
                path: p.clone(),
                source,
            })?;
            let len = file.metadata().map_or(0, |m| m.len());
            Ok::<_, Error>((file, len))
        };
        let (tests, tests_written) = open("tests.jsonl")?;
        let (steps, steps_written) = open("steps.jsonl")?;
        Ok(RunDir {
            path: path.to_path_buf(),
            info,
            tests,
            tests_written,
            steps,
            steps_written,
            recorded,
            replayed: 0,
            best_size: 0,
            pass: "first-check".to_string(),
            started: Instant::now(),
            error: None,
            _lock: lock,
            previous_process: None,
        })
    }

    /// The id of the process that used this run before it was opened to resume: it is dead
    /// (its lock was free), so what it left
    /// ([`crate::TestCommand::remove_test_dirs_of`]) may go.
    pub fn previous_process(&self) -> Option<u32> {
        self.previous_process
    }

    /// Whether `bytes` are something this run held: its original, a best it recorded, or
    /// its best now. Anything else in its output was put there by someone else.
    pub fn knows(&self, bytes: &[u8]) -> bool {
        let key = content_key(bytes);
        key == self.info.original
            || self.info.best_hash == Some(key)
            || self
                .recorded
                .iter()
                .any(|&(size, hash)| (size, hash) == (bytes.len(), key))
    }

    /// Whether a resumed run is still replaying the steps the directory held.
    pub fn replaying(&self) -> bool {
        self.replayed < self.recorded.len()
    }

    /// The directory.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// What `meta.json` says now.
    pub fn info(&self) -> &RunInfo {
        &self.info
    }

    /// The original input it keeps.
    pub fn original(&self) -> Result<Vec<u8>, Error> {
        let p = self.path.join("original");
        std::fs::read(&p).map_err(|source| Error::Io {
            what: "read the original from",
            path: p,
            source,
        })
    }

    /// Where `--also-interesting` keeps candidates.
    pub fn also_interesting_dir(&self) -> PathBuf {
        self.path.join("also-interesting")
    }

    /// The verdict cache, loaded, to give the reduction ([`crate::Reduction::set_store`]).
    pub fn verdicts(&self) -> Result<VerdictFile, Error> {
        let p = self.path.join("verdicts");
        VerdictFile::open(&p).map_err(|source| Error::Io {
            what: "open the verdict cache",
            path: p,
            source,
        })
    }

    /// Updates `meta.json` with `change`, atomically.
    pub fn update(&mut self, change: impl FnOnce(&mut RunInfo)) -> Result<(), Error> {
        change(&mut self.info);
        self.save_info()
    }

    fn save_info(&self) -> Result<(), Error> {
        let p = self.path.join("meta.json");
        let text = serde_json::to_string_pretty(&self.info.to_json()).unwrap_or_default() + "\n";
        write_atomic(&p, text.as_bytes()).map_err(|source| Error::Io {
            what: "write",
            path: p,
            source,
        })
    }

    /// The first thing that could not be written, if any; the reduction goes on without it.
    pub fn error(&self) -> Option<&str> {
        self.error.as_deref()
    }

    fn fail(&mut self, what: &str, e: std::io::Error) {
        self.error
            .get_or_insert_with(|| format!("{what} in {}: {e}", self.path.display()));
    }

    /// Records `event`: a test in `tests.jsonl`, a change of the best in `best` and
    /// `steps.jsonl` (unless the directory already held it), the end in `meta.json`.
    pub fn record(&mut self, event: &Event) -> Recorded {
        match event {
            Event::PassStarted { pass } => self.pass = pass.to_string(),
            Event::PassDone { .. } => self.pass = "re-run".to_string(),
            Event::Tested {
                verdict,
                candidate,
                size,
                duration,
                ..
            } => self.log_test(*verdict, *candidate, *size, *duration),
            Event::Reduced { pass, bytes, tests } => {
                return self.step(pass, bytes, Some(*tests));
            }
            Event::RolledBack { bytes } => return self.step("rollback", bytes, None),
            Event::Finished { best, report } => {
                let status = match report.stopped {
                    None => RunStatus::Finished,
                    Some(_) => RunStatus::Stopped,
                };
                let replaying = self.replayed < self.recorded.len();
                if let Err(e) = self.update(|i| i.status = status) {
                    self.error.get_or_insert(e.to_string());
                }
                if replaying {
                    return Recorded::Replayed;
                }
                return self.step_best(best);
            }
            _ => {}
        }
        Recorded::Other
    }

    fn log_test(&mut self, verdict: Verdict, candidate: u128, size: usize, duration: Duration) {
        if self.tests_written >= LOG_LIMIT {
            return;
        }
        let mut line = json!({
            "t": (self.started.elapsed().as_millis() as f64) / 1000.0,
            "pass": self.pass,
            "hash": hex(candidate),
            "size": size,
            "verdict": verdict_word(verdict),
            "ms": duration.as_millis() as u64,
        })
        .to_string();
        if self.tests_written + line.len() as u64 + 1 >= LOG_LIMIT {
            line = json!({"truncated": true, "limit": LOG_LIMIT}).to_string();
            self.tests_written = LOG_LIMIT;
        } else {
            self.tests_written += line.len() as u64 + 1;
        }
        if let Err(e) = append_line(&mut self.tests, &line) {
            self.tests_written = LOG_LIMIT;
            self.fail("cannot log a test", e);
        }
    }

    /// A change of the best: replayed if the directory held it, else written.
    fn step(&mut self, pass: &str, bytes: &[u8], tests: Option<u64>) -> Recorded {
        let key = content_key(bytes);
        if let Some(&(size, hash)) = self.recorded.get(self.replayed) {
            if (size, hash) == (bytes.len(), key) {
                self.replayed += 1;
                return Recorded::Replayed;
            }
            // The replay went another way (other options or a clock-bound pass): what it
            // finds from here on is new.
            self.recorded.clear();
            self.replayed = 0;
            let _ = append_line(&mut self.steps, r#"{"diverged":true}"#);
        }
        let edit = self.edit_from_best(bytes);
        let mut line = json!({
            "pass": pass,
            "size": bytes.len(),
            "hash": hex(key),
            "tests": tests,
            "t": (self.started.elapsed().as_millis() as f64) / 1000.0,
        });
        match edit {
            Ok((from, to, insert)) if self.steps_written < LOG_LIMIT => {
                line["cut"] = json!([from, to]);
                line["insert"] = json!(hex_bytes(insert));
            }
            Ok(_) => line["edit"] = json!("omitted: steps.jsonl is full"),
            Err(e) => {
                self.fail("cannot read the best", e);
            }
        }
        let text = line.to_string();
        self.steps_written += text.len() as u64 + 1;
        if let Err(e) = append_line(&mut self.steps, &text) {
            self.fail("cannot log a step", e);
        }
        self.step_best(bytes)
    }

    /// Writes `bytes` as the best and notes it in `meta.json`.
    fn step_best(&mut self, bytes: &[u8]) -> Recorded {
        if let Err(e) = write_atomic(&self.path.join("best"), bytes) {
            self.fail("cannot write the best", e);
        }
        self.best_size = bytes.len();
        let key = content_key(bytes);
        if let Err(e) = self.update(|i| {
            i.best_size = Some(bytes.len());
            i.best_hash = Some(key);
        }) {
            self.error.get_or_insert(e.to_string());
        }
        Recorded::New
    }

    /// `bytes` as an edit of the `best` file: the span `[from, to)` of the old best that
    /// differs, and what replaces it. Reads the old best from disk rather than keep a copy.
    fn edit_from_best<'b>(&self, bytes: &'b [u8]) -> std::io::Result<(usize, usize, &'b [u8])> {
        let mut old = File::open(self.path.join("best"))?;
        let old_len = self.best_size;
        let mut buf = vec![0u8; 64 << 10];
        // The common prefix.
        let mut prefix = 0;
        'prefix: while prefix < old_len.min(bytes.len()) {
            let n = old.read(&mut buf)?;
            if n == 0 {
                break;
            }
            for &b in &buf[..n] {
                if prefix >= bytes.len() || b != bytes[prefix] {
                    break 'prefix;
                }
                prefix += 1;
            }
        }
        // The common suffix, not overlapping the prefix.
        let max_suffix = (old_len - prefix.min(old_len)).min(bytes.len() - prefix);
        let mut suffix = 0;
        while suffix < max_suffix {
            let chunk = (max_suffix - suffix).min(buf.len());
            let at = old_len - suffix - chunk;
            old.seek(SeekFrom::Start(at as u64))?;
            old.read_exact(&mut buf[..chunk])?;
            let mut matched = 0;
            for i in (0..chunk).rev() {
                if buf[i] != bytes[bytes.len() - suffix - matched - 1] {
                    break;
                }
                matched += 1;
            }
            suffix += matched;
            if matched < chunk {
                break;
            }
        }
        Ok((
            prefix,
            old_len - suffix,
            &bytes[prefix..bytes.len() - suffix],
        ))
    }
}

fn hex_bytes(bytes: &[u8]) -> String {
    let mut s = String::with_capacity(bytes.len() * 2);
    for b in bytes {
        s.push_str(&format!("{b:02x}"));
    }
    s
}

/// Rebuilds every step of a run directory from its original and `steps.jsonl`: the bests in
/// order. For auditing a run, and for the tests.
pub fn replay_steps(path: &Path) -> Result<Vec<Vec<u8>>, Error> {
    let io = |p: PathBuf| {
        move |source| Error::Io {
            what: "read",
            path: p,
            source,
        }
    };
    let original = std::fs::read(path.join("original")).map_err(io(path.join("original")))?;
    let steps = std::fs::read(path.join("steps.jsonl")).map_err(io(path.join("steps.jsonl")))?;
    let mut best = original;
    let mut out = Vec::new();
    for line in steps.split(|&b| b == b'\n').filter(|l| !l.is_empty()) {
        let bad = || Error::RunDir(format!("a damaged line in {}", path.display()));
        let v: Value = serde_json::from_slice(line).map_err(|_| bad())?;
        let (Some(cut), Some(insert)) = (v.get("cut"), v.get("insert").and_then(Value::as_str))
        else {
            continue;
        };
        let from = cut.get(0).and_then(Value::as_u64).ok_or_else(bad)? as usize;
        let to = cut.get(1).and_then(Value::as_u64).ok_or_else(bad)? as usize;
        if from > to || to > best.len() || insert.len() % 2 != 0 {
            return Err(bad());
        }
        let insert: Vec<u8> = (0..insert.len())
            .step_by(2)
            .map(|i| u8::from_str_radix(&insert[i..i + 2], 16))
            .collect::<Result<_, _>>()
            .map_err(|_| bad())?;
        best.splice(from..to, insert);
        out.push(best.clone());
    }
    Ok(out)
}

/// How many run directories [`prune_runs`] keeps at least: the newest ones.
pub const KEEP_RUNS: usize = 20;

/// How long [`prune_runs`] keeps any run directory, counted from its last change.
pub const KEEP_RUNS_FOR: Duration = Duration::from_secs(14 * 24 * 3600);

/// Whether `dir` is a myhill run directory: it holds the [`MARKER`] *and* a `meta.json` that
/// reads as a run's. Either alone is not enough: a folder of someone's files may well hold a
/// `meta.json`, and nothing that is not a run may be pruned or removed.
pub fn is_run_dir(dir: &Path) -> bool {
    dir.join(MARKER).is_file() && run_info(dir).is_some()
}

/// What `dir/meta.json` says, if it reads as a run's.
pub fn run_info(dir: &Path) -> Option<RunInfo> {
    let text = std::fs::read(dir.join("meta.json")).ok()?;
    let v: Value = serde_json::from_slice(&text).ok()?;
    RunInfo::from_json(&v)
}

/// The process that is making the half-made run directory named `name`
/// (`.myhill-new-run-PID-XXXXXX`), if the name says.
fn new_run_maker(name: &str) -> Option<u32> {
    let (pid, _) = name.strip_prefix(NEW_PREFIX)?.split_once('-')?;
    pid.parse().ok()
}

/// Removes the half-made run directories under `parent` whose maker is gone (killed before it
/// renamed one into place), never one a live process is making or one that is locked. Returns
/// what it removed.
pub fn remove_dead_new_runs(parent: &Path) -> Vec<PathBuf> {
    let Ok(entries) = std::fs::read_dir(parent) else {
        return Vec::new();
    };
    let mut removed = Vec::new();
    for entry in entries.flatten() {
        let name = entry.file_name();
        let Some(pid) = name.to_str().and_then(new_run_maker) else {
            continue;
        };
        let path = entry.path();
        let gone = pid != std::process::id() && !Path::new(&format!("/proc/{pid}")).exists();
        if gone
            && entry.file_type().is_ok_and(|t| t.is_dir())
            && !run_in_use(&path)
            && std::fs::remove_dir_all(&path).is_ok()
        {
            removed.push(path);
        }
    }
    removed
}

/// When the run in `dir` last changed (its `meta.json`, rewritten on every new best).
fn last_change(dir: &Path) -> SystemTime {
    std::fs::metadata(dir.join("meta.json"))
        .or_else(|_| std::fs::metadata(dir))
        .and_then(|m| m.modified())
        .unwrap_or(UNIX_EPOCH)
}

/// Removes the old run directories under `root`: every one that is not among the newest
/// `keep`, has not changed for `max_age`, and is not in use; also the remains of directories
/// that were never finished being made. Returns what it removed. Only directories that are
/// run directories ([`is_run_dir`]) are touched.
pub fn prune_runs(root: &Path, keep: usize, max_age: Duration) -> Vec<PathBuf> {
    let Ok(entries) = std::fs::read_dir(root) else {
        return Vec::new();
    };
    let now = SystemTime::now();
    let old = |when: SystemTime| now.duration_since(when).unwrap_or_default() > max_age;
    let mut runs = Vec::new();
    let mut removed = remove_dead_new_runs(root);
    for entry in entries.flatten() {
        let path = entry.path();
        if !entry.file_type().is_ok_and(|t| t.is_dir()) {
            continue;
        }
        let name = entry.file_name();
        if name.to_string_lossy().starts_with(NEW_PREFIX) {
            // Ones whose maker is gone went with `remove_dead_new_runs`; a name without the
            // maker's id (an older myhill's) goes after a day.
            let day = Duration::from_secs(24 * 3600);
            let made = entry.metadata().and_then(|m| m.modified()).unwrap_or(now);
            if now.duration_since(made).unwrap_or_default() > day
                && !run_in_use(&path)
                && std::fs::remove_dir_all(&path).is_ok()
            {
                removed.push(path);
            }
        } else if is_run_dir(&path) {
            runs.push((last_change(&path), path));
        }
    }
    runs.sort_by(|a, b| b.cmp(a));
    for (when, path) in runs.into_iter().skip(keep) {
        if old(when) && !run_in_use(&path) && std::fs::remove_dir_all(&path).is_ok() {
            removed.push(path);
        }
    }
    removed
}

/// How many bytes the run directories [`prune_runs_to_size`] keeps may take together: the
/// newest [`KEEP_RUNS`] of a large input (each holds its original and best) would otherwise fill a
/// disk.
pub const KEEP_RUNS_BYTES: u64 = 2 << 30;

/// The bytes of the files under `dir` (links not followed).
pub fn dir_bytes(dir: &Path) -> u64 {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return 0;
    };
    entries
        .flatten()
        .map(|e| match e.file_type() {
            Ok(t) if t.is_dir() => dir_bytes(&e.path()),
            Ok(_) => e.metadata().map_or(0, |m| m.len()),
            Err(_) => 0,
        })
        .sum()
}

/// Removes the oldest run directories under `root` until those left take at most `max_bytes`
/// together; a run in use (the one just made, one being resumed) is never removed, nor
/// counted against the others. Returns what it removed, with the bytes each took. Only run
/// directories ([`is_run_dir`]) are touched.
pub fn prune_runs_to_size(root: &Path, max_bytes: u64) -> Vec<(PathBuf, u64)> {
    let Ok(entries) = std::fs::read_dir(root) else {
        return Vec::new();
    };
    let mut runs: Vec<(SystemTime, PathBuf, u64)> = Vec::new();
    let mut in_use = 0u64;
    for entry in entries.flatten() {
        let path = entry.path();
        if !entry.file_type().is_ok_and(|t| t.is_dir()) || !is_run_dir(&path) {
            continue;
        }
        let bytes = dir_bytes(&path);
        if run_in_use(&path) {
            in_use += bytes;
        } else {
            runs.push((last_change(&path), path, bytes));
        }
    }
    let mut total = in_use + runs.iter().map(|r| r.2).sum::<u64>();
    runs.sort();
    let mut removed = Vec::new();
    for (_, path, bytes) in runs {
        if total <= max_bytes {
            break;
        }
        if !run_in_use(&path) && std::fs::remove_dir_all(&path).is_ok() {
            total -= bytes;
            removed.push((path, bytes));
        }
    }
    removed
}

/// The runs under `root` (newest first, at most `limit`) with what their `meta.json` says;
/// only run directories ([`is_run_dir`]).
pub fn list_runs(root: &Path, limit: usize) -> Vec<(PathBuf, RunInfo)> {
    let Ok(entries) = std::fs::read_dir(root) else {
        return Vec::new();
    };
    let mut dirs: Vec<PathBuf> = entries.flatten().map(|e| e.path()).collect();
    dirs.sort();
    dirs.reverse();
    dirs.into_iter()
        .take(limit)
        .filter_map(|d| {
            let info = run_info(&d).filter(|_| d.join(MARKER).is_file())?;
            Some((d, info))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn utc_stamps_are_calendar_dates() {
        assert_eq!(utc_stamp(0), "19700101-000000");
        assert_eq!(utc_stamp(951_782_400), "20000229-000000");
        assert_eq!(utc_stamp(1_796_212_800 + 3_661), "20261202-130101");
    }

    /// Makes a run directory at `path` whose original is `size` bytes, changed `age_secs`
    /// ago; unlocked.
    fn old_run(path: &Path, size: usize, age_secs: u64) {
        drop(RunDir::create(path, RunInfo::new(vec![], 1), &vec![b'x'; size]).unwrap());
        let when = SystemTime::now() - Duration::from_secs(age_secs);
        File::options()
            .write(true)
            .open(path.join("meta.json"))
            .unwrap()
            .set_modified(when)
            .unwrap();
    }

    #[test]
    fn pruning_to_a_size_removes_the_oldest_and_never_a_run_in_use() {
        let root = tempfile::tempdir().unwrap();
        let r = |name: &str| root.path().join(name);
        // Each holds about 2 x 10,000 bytes (original and best).
        old_run(&r("a-oldest"), 10_000, 300);
        old_run(&r("b"), 10_000, 200);
        old_run(&r("c"), 10_000, 100);
        let one = dir_bytes(&r("c"));
        assert!((20_000..22_000).contains(&one), "{one}");
        std::fs::create_dir(r("not-a-run")).unwrap();
        std::fs::write(r("not-a-run/meta.json"), vec![b'{'; 50_000]).unwrap();
        // The one in use is the oldest: it stays, and the others go oldest first.
        let (busy, _) = RunDir::open(&r("a-oldest")).unwrap();
        let removed = prune_runs_to_size(root.path(), 2 * one + one / 2);
        assert_eq!(
            removed.iter().map(|(p, _)| p.clone()).collect::<Vec<_>>(),
            vec![r("b")]
        );
        assert!(removed[0].1 >= 20_000);
        assert!(r("a-oldest").is_dir() && r("c").is_dir() && r("not-a-run").is_dir());
        // Under the bound nothing goes; a bound below the run in use leaves it alone.
        assert!(prune_runs_to_size(root.path(), 3 * one).is_empty());
        let removed = prune_runs_to_size(root.path(), 0);
        assert_eq!(removed.len(), 1);
        assert!(r("a-oldest").is_dir() && !r("c").exists());
        drop(busy);
    }

    #[test]
    fn edits_rebuild_every_step() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("run");
        let original = b"abcdefghij".to_vec();
        let mut run = RunDir::create(&path, RunInfo::new(vec![], 7), &original).unwrap();
        let bests: Vec<&[u8]> = vec![b"abcdghij", b"abXhij", b"bXhj", b"bXhj!", b""];
        for b in &bests {
            assert_eq!(
                run.record(&Event::Reduced {
                    pass: "p",
                    bytes: b,
                    tests: 1
                }),
                Recorded::New
            );
        }
        let rebuilt = replay_steps(&path).unwrap();
        assert_eq!(
            rebuilt,
            bests.iter().map(|b| b.to_vec()).collect::<Vec<_>>()
        );
        assert_eq!(std::fs::read(path.join("best")).unwrap(), b"");
        // Locked while in use.
        let Err(busy) = RunDir::open(&path) else {
            panic!("a run in use was opened again");
        };
        assert!(busy.to_string().contains("in use"), "{busy}");
        assert!(run_in_use(&path));
        drop(run);
        assert!(!run_in_use(&path));
        let (mut again, info) = RunDir::open(&path).unwrap();
        assert_eq!(info.best_size, Some(0));
        assert_eq!(info.test, 7);
        // A replay of the same steps writes nothing new; a step past them does.
        for b in &bests {
            let step = again.record(&Event::Reduced {
                pass: "p",
                bytes: b,
                tests: 1,
            });
            assert_eq!(step, Recorded::Replayed);
        }
        assert!(RunDir::create(&path, RunInfo::new(vec![], 7), b"x").is_err());
    }

    /// A killed run's lock may still be held a moment by a child it was starting: with the
    /// holder dead, the lock is waited for rather than refused.
    #[test]
    fn a_lock_whose_holder_is_dead_is_waited_for() {
        let dir = tempfile::tempdir().unwrap();
        let mut done = std::process::Command::new("true").spawn().unwrap();
        let dead = done.id();
        done.wait().unwrap();
        std::fs::write(dir.path().join("lock"), format!("{dead}\n")).unwrap();
        let held = File::open(dir.path().join("lock")).unwrap();
        // SAFETY: flock on a descriptor this test owns.
        let locked = unsafe {
            libc::flock(
                std::os::fd::AsRawFd::as_raw_fd(&held),
                libc::LOCK_EX | libc::LOCK_NB,
            )
        };
        assert_eq!(locked, 0);
        let release = std::thread::spawn(move || {
            std::thread::sleep(Duration::from_millis(300));
            drop(held);
        });
        let taken = lock_in(dir.path());
        release.join().unwrap();
        assert!(taken.is_ok(), "{:?}", taken.err().map(|e| e.to_string()));
    }

    #[test]
    fn the_verdict_file_survives_a_torn_line() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("verdicts");
        {
            let mut f = VerdictFile::open(&p).unwrap();
            f.remember(1, Verdict::Interesting);
            f.remember(2, Verdict::NotInteresting);
            f.remember_rerun(1, 1, Verdict::TimedOut);
        }
        let mut text = std::fs::read(&p).unwrap();
        text.extend_from_slice(b"000000000000000000000000000000");
        std::fs::write(&p, text).unwrap();
        let f = VerdictFile::open(&p).unwrap();
        assert_eq!(f.len(), 2);
        assert_eq!(f.recall(1), Some(Verdict::Interesting));
        assert_eq!(f.recall(2), Some(Verdict::NotInteresting));
        assert_eq!(f.recall(3), None);
        assert_eq!(f.recall_rerun(1, 1), Some(Verdict::TimedOut));
    }
}
