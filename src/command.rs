//! Runs one command in its own process group with a time limit: the only place myhill starts a process.
//!
//! Main items: [`Process`] (what to run: argv, working directory, where stdin comes from and
//! stdout and stderr go, a time limit and a grace), [`run`], [`Ended`] and [`Run`]. The command
//! becomes the leader of a new process group. When it must stop early (its time is up, or its
//! [`Cancel`] fires) the whole group gets SIGTERM, so the command's own clean-up runs (a shell's
//! `trap`, a compiler deleting its temporaries, `srun` cancelling its job step), then SIGKILL
//! after the grace; a hurried cancel shortens the grace to [`HURRIED_GRACE`]. After a normal exit, whatever the command left running in its group is
//! stopped the same way. Exits are noticed through a pidfd, so a fast command costs no polling
//! delay.
//!
//! ```
//! use myhill::{Cancel, Ended, Process, run};
//! let mut p = Process::new(["sh", "-c", "exit 3"]);
//! p.timeout = Some(std::time::Duration::from_secs(5));
//! let r = run(&p, &Cancel::never()).unwrap();
//! assert_eq!(r.ended, Ended::Exited(3));
//! ```
//!
//! Limits: Unix only. A process that leaves the group (`setsid`) escapes the signals. Output
//! goes to files or nowhere, never to memory, so a command that prints gigabytes costs disk.

use crate::oracle::Cancel;
use std::ffi::OsString;
use std::fs::File;
use std::os::unix::process::{CommandExt, ExitStatusExt};
use std::path::PathBuf;
use std::process::{Child, Stdio};
use std::time::{Duration, Instant};

/// The grace between SIGTERM and SIGKILL when a command must stop early.
pub const DEFAULT_GRACE: Duration = Duration::from_secs(1);

/// The grace of a hurried stop: short, but not nothing. A launcher such as `srun` must see
/// the SIGTERM before the SIGKILL to cancel the job it started (a millisecond is not always
/// enough; five are), or the job outlives the test.
pub const HURRIED_GRACE: Duration = Duration::from_millis(50);

/// What to run and how.
#[derive(Clone, Debug)]
pub struct Process {
    /// The program and its arguments.
    pub argv: Vec<OsString>,
    /// The working directory (default: the current one).
    pub cwd: Option<PathBuf>,
    /// A file fed on stdin (default: nothing, stdin is /dev/null).
    pub stdin: Option<PathBuf>,
    /// Where stdout goes (default: discarded).
    pub stdout: Option<PathBuf>,
    /// Where stderr goes (default: discarded).
    pub stderr: Option<PathBuf>,
    /// Extra environment variables.
    pub env: Vec<(OsString, OsString)>,
    /// Time limit (default: none).
    pub timeout: Option<Duration>,
    /// Time between SIGTERM and SIGKILL when the command must stop early.
    pub grace: Duration,
}

impl Process {
    /// A process running `argv` with the defaults above.
    pub fn new<S: Into<OsString>>(argv: impl IntoIterator<Item = S>) -> Process {
        Process {
            argv: argv.into_iter().map(Into::into).collect(),
            cwd: None,
            stdin: None,
            stdout: None,
            stderr: None,
            env: Vec::new(),
            timeout: None,
            grace: DEFAULT_GRACE,
        }
    }
}

/// How a command ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ended {
    /// It exited with this status.
    Exited(i32),
    /// A signal it did not get from us ended it.
    Signalled(i32),
    /// It ran past its time limit and was stopped.
    TimedOut,
}

/// A finished run.
#[derive(Clone, Copy, Debug)]
pub struct Run {
    /// How it ended.
    pub ended: Ended,
    /// From start to exit (or to the time limit).
    pub duration: Duration,
}

/// Why a command gave no [`Run`].
#[derive(Debug)]
pub enum RunError {
    /// It could not be started (or a file it needs could not be opened).
    Spawn(std::io::Error),
    /// Its [`Cancel`] fired; it was stopped.
    Cancelled,
    /// Waiting for it failed.
    Wait(std::io::Error),
}

impl std::fmt::Display for RunError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            RunError::Spawn(e) => write!(f, "cannot start it: {e}"),
            RunError::Cancelled => f.write_str("cancelled"),
            RunError::Wait(e) => write!(f, "cannot wait for it: {e}"),
        }
    }
}

impl std::error::Error for RunError {}

fn output_to(path: &Option<PathBuf>) -> std::io::Result<Stdio> {
    Ok(match path {
        Some(p) => File::create(p)?.into(),
        None => Stdio::null(),
    })
}

/// Runs `process` to its end, its time limit, or its cancellation.
pub fn run(process: &Process, cancel: &Cancel) -> Result<Run, RunError> {
    let Some(program) = process.argv.first() else {
        return Err(RunError::Spawn(std::io::Error::new(
            std::io::ErrorKind::InvalidInput,
            "empty command line",
        )));
    };
    let mut cmd = std::process::Command::new(program);
    cmd.args(&process.argv[1..]).process_group(0);
    if let Some(dir) = &process.cwd {
        cmd.current_dir(dir);
    }
    for (k, v) in &process.env {
        cmd.env(k, v);
    }
    cmd.stdin(match &process.stdin {
        Some(p) => File::open(p).map_err(RunError::Spawn)?.into(),
        None => Stdio::null(),
    });
    cmd.stdout(output_to(&process.stdout).map_err(RunError::Spawn)?);
    cmd.stderr(output_to(&process.stderr).map_err(RunError::Spawn)?);
    adopt_orphans();
    let started = Instant::now();
    let mut child = cmd.spawn().map_err(RunError::Spawn)?;
    let group = child.id() as i32;
    let watch = ExitWatch::new(group);
    let result = loop {
        match child.try_wait() {
            Ok(Some(status)) => {
                let ended = match status.code() {
                    Some(code) => Ended::Exited(code),
                    None => Ended::Signalled(status.signal().unwrap_or(0)),
                };
                break Ok(Run {
                    ended,
                    duration: started.elapsed(),
                });
            }
            Ok(None) => {}
            Err(e) => {
                stop_group(&mut child, &watch, group, Duration::ZERO);
                return Err(RunError::Wait(e));
            }
        }
        if cancel.is_cancelled() {
            let grace = if cancel.is_hurried() {
                HURRIED_GRACE.min(process.grace)
            } else {
                process.grace
            };
            stop_group(&mut child, &watch, group, grace);
            break Err(RunError::Cancelled);
        }
        let elapsed = started.elapsed();
        if let Some(limit) = process.timeout {
            if elapsed >= limit {
                stop_group(&mut child, &watch, group, process.grace);
                break Ok(Run {
                    ended: Ended::TimedOut,
                    duration: elapsed,
                });
            }
            // Wake on exit at once, but at least every 10 ms to notice cancellation.
            watch.wait((limit - elapsed).min(Duration::from_millis(10)));
        } else {
            watch.wait(Duration::from_millis(10));
        }
    };
    // Whatever the command left running in its group goes with it.
    clear_group(
        group,
        if cancel.is_hurried() {
            Duration::ZERO
        } else {
            process.grace
        },
    );
    result
}

/// Stops a running leader and its group: SIGTERM to the group, up to `grace` for the leader to
/// exit, then SIGKILL to the group; the leader is reaped.
fn stop_group(child: &mut Child, watch: &ExitWatch, group: i32, grace: Duration) {
    signal_group(group, libc::SIGTERM);
    let deadline = Instant::now() + grace;
    while Instant::now() < deadline {
        if matches!(child.try_wait(), Ok(Some(_))) {
            break;
        }
        watch.wait((deadline - Instant::now()).min(Duration::from_millis(10)));
    }
    signal_group(group, libc::SIGKILL);
    let _ = child.wait();
}

/// After the leader is gone: stops what is left of its group, SIGTERM first and SIGKILL after
/// `grace` if anything still answers.
fn clear_group(group: i32, grace: Duration) {
    if !group_exists(group) {
        return;
    }
    signal_group(group, libc::SIGTERM);
    let deadline = Instant::now() + grace;
    while Instant::now() < deadline && group_exists(group) {
        std::thread::sleep(Duration::from_millis(2));
    }
    signal_group(group, libc::SIGKILL);
}

fn signal_group(group: i32, signal: i32) {
    // SAFETY: killpg only sends a signal; a group that is already gone gives ESRCH.
    unsafe {
        libc::killpg(group, signal);
    }
}

/// Whether a live process is left in the group. Members that died are reaped first: they
/// are this process's children (see [`adopt_orphans`]), and a zombie would look alive.
fn group_exists(group: i32) -> bool {
    loop {
        // SAFETY: waitid writes into the zeroed siginfo it is given; P_PGID only reaps
        // children in this test's own group, never another test's leader.
        let reaped = unsafe {
            let mut info: libc::siginfo_t = std::mem::zeroed();
            let r = libc::waitid(
                libc::P_PGID,
                group as libc::id_t,
                &mut info,
                libc::WEXITED | libc::WNOHANG,
            );
            r == 0 && info.si_pid() != 0
        };
        if !reaped {
            break;
        }
    }
    // SAFETY: signal 0 checks for existence and sends nothing.
    unsafe { libc::killpg(group, 0) == 0 }
}

/// Makes this process the reaper of its orphaned descendants, so that what a test leaves
/// behind in its group can be reaped (and counted as gone) at once rather than whenever
/// init gets to it. Linux only; elsewhere a no-op.
fn adopt_orphans() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| {
        // SAFETY: PR_SET_CHILD_SUBREAPER takes one integer argument and changes only this
        // process's own attribute.
        unsafe {
            libc::prctl(libc::PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0);
        }
    });
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::oracle::Control;

    fn sh(script: &str) -> Process {
        Process::new(["sh", "-c", script])
    }

    #[test]
    fn exit_status_and_signals_are_reported() {
        let r = run(&sh("exit 7"), &Cancel::never()).unwrap();
        assert_eq!(r.ended, Ended::Exited(7));
        let r = run(&sh("kill -SEGV $$"), &Cancel::never()).unwrap();
        assert_eq!(r.ended, Ended::Signalled(libc::SIGSEGV));
    }

    #[test]
    fn a_timed_out_command_gets_sigterm_first_so_its_cleanup_runs() {
        let dir = tempfile::tempdir().unwrap();
        let flag = dir.path().join("cleaned");
        let mut p = sh(&format!(
            "trap 'touch {}; exit 1' TERM; sleep 10 & wait",
            flag.display()
        ));
        p.timeout = Some(Duration::from_millis(200));
        let r = run(&p, &Cancel::never()).unwrap();
        assert_eq!(r.ended, Ended::TimedOut);
        assert!(flag.exists(), "the TERM trap did not run");
    }

    #[test]
    fn a_command_ignoring_sigterm_is_killed_after_the_grace() {
        let mut p = sh("trap '' TERM; sleep 10");
        p.timeout = Some(Duration::from_millis(100));
        p.grace = Duration::from_millis(200);
        let started = Instant::now();
        let r = run(&p, &Cancel::never()).unwrap();
        assert_eq!(r.ended, Ended::TimedOut);
        assert!(started.elapsed() < Duration::from_secs(5));
    }

    #[test]
    fn cancellation_stops_the_group() {
        let control = Control::new();
        let cancel = Cancel::child_of(&control);
        let stopper = {
            let control = control.clone();
            std::thread::spawn(move || {
                std::thread::sleep(Duration::from_millis(100));
                control.hurry();
            })
        };
        let started = Instant::now();
        let r = run(&sh("sleep 10"), &cancel);
        stopper.join().unwrap();
        assert!(matches!(r, Err(RunError::Cancelled)));
        assert!(started.elapsed() < Duration::from_secs(5));
    }
}
