//! Runs one command in its own process group with a time limit: the only place myhill starts a process.
//!
//! Main items: [`Process`] (what to run: argv, working directory, where stdin comes from and
//! stdout and stderr go, a time limit and a grace), [`run`], [`ProcessEnd`] and [`Run`]. The command
//! becomes the leader of a new process group. When it must stop early (its time is up, or its
//! [`Cancel`] fires) the whole group gets SIGTERM, so the command's own clean-up runs (a shell's
//! `trap`, a compiler deleting its temporaries, `srun` cancelling its job step), then SIGKILL
//! after the grace; a hurried cancel shortens the grace to [`HURRIED_GRACE`]. After a normal
//! exit, whatever the command left running in its group is stopped the same way. Exits are
//! noticed through a pidfd, so a fast command costs no polling delay.
//!
//! What leaves the group is caught too. This process is a child subreaper (Linux), so a
//! daemon the command starts in a session of its own (`setsid sleep 40 &`) becomes this
//! process's child when its parent exits; every command gets a mark in its environment
//! ([`MARK_VARIABLE`]), which its descendants inherit, so after the command ends the
//! orphans carrying its mark are stopped (SIGTERM, the grace, SIGKILL) and reaped, while
//! those of commands still running are left alone. [`stop_orphans`] stops every orphan left,
//! marked or not, for a program's last moment.
//!
//! ```
//! use myhill::process::{Cancel, Process, ProcessEnd, run};
//! let mut p = Process::new(["sh", "-c", "exit 3"]);
//! p.timeout = Some(std::time::Duration::from_secs(5));
//! let r = run(&p, &Cancel::never()).unwrap();
//! assert_eq!(r.ended, ProcessEnd::Exited(3));
//! ```
//!
//! Limits: Unix; orphans are caught on Linux only (elsewhere a process that leaves the group
//! escapes). An orphan that clears its environment (`env -i`) is not told apart from other
//! commands' until [`stop_orphans`]; one whose parent still lives is not an orphan, and
//! goes when that parent is stopped. A program that uses this module and also starts
//! processes of its own in other process groups may see their zombies reaped here. Output
//! goes to files or nowhere, never to memory, so a command that prints gigabytes costs disk.

use crate::oracle::Cancel;
use std::ffi::OsString;
use std::fs::File;
use std::os::unix::process::{CommandExt, ExitStatusExt};
use std::path::PathBuf;
use std::process::{Child, Stdio};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Mutex, MutexGuard};
use std::time::{Duration, Instant};

/// The environment variable that marks every process a command starts, so that what it
/// leaves behind outside its group can be told from what other commands left.
pub const MARK_VARIABLE: &str = "MYHILL_COMMAND_MARK";

/// The commands running now (their process ids): children of this process that only their
/// own [`run`] may reap. Held while a command is started, so a sweep never sees a new
/// command's process before it is listed here.
static LEADERS: Mutex<Vec<i32>> = Mutex::new(Vec::new());

fn leaders() -> MutexGuard<'static, Vec<i32>> {
    LEADERS.lock().unwrap_or_else(|e| e.into_inner())
}

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
pub enum ProcessEnd {
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
    pub ended: ProcessEnd,
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
    die_with_this_process(&mut cmd);
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
    static MARKS: AtomicU64 = AtomicU64::new(0);
    let mark = format!(
        "{}.{}",
        std::process::id(),
        MARKS.fetch_add(1, Ordering::Relaxed)
    );
    cmd.env(MARK_VARIABLE, &mark);
    adopt_orphans();
    let started = Instant::now();
    let mut child = {
        let mut running = leaders();
        let child = cmd.spawn().map_err(RunError::Spawn)?;
        running.push(child.id() as i32);
        child
    };
    let group = child.id() as i32;
    let result = watch_and_stop(process, cancel, &mut child, group, started);
    {
        // The leader is reaped by now; its pid no longer needs guarding.
        let mut running = leaders();
        if let Some(k) = running.iter().position(|&p| p == group) {
            running.swap_remove(k);
        }
    }
    let grace = if cancel.is_hurried() {
        Duration::ZERO
    } else {
        process.grace
    };
    // Whatever the command left running in its group goes with it, and so does what it
    // started in sessions of their own.
    clear_group(group, grace, cancel);
    stop_marked(Some(&mark), grace);
    result
}

/// Gives the command a parent-death signal (Linux): if this process is killed (SIGKILL, which
/// nothing can catch), the command, its group's leader, gets SIGKILL rather than run on
/// unwatched. What the leader started itself is not reached: that is in the README's list of
/// what no process can clean up after SIGKILL.
fn die_with_this_process(cmd: &mut std::process::Command) {
    #[cfg(target_os = "linux")]
    {
        let parent = std::process::id() as libc::pid_t;
        // SAFETY: between fork and exec the closure calls only async-signal-safe functions
        // (prctl, getppid) and allocates nothing.
        unsafe {
            cmd.pre_exec(move || {
                if libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL, 0, 0, 0) != 0 {
                    return Err(std::io::Error::last_os_error());
                }
                // This process died before the signal was set: do not start at all.
                if libc::getppid() != parent {
                    return Err(std::io::Error::other("myhill exited"));
                }
                Ok(())
            });
        }
    }
    #[cfg(not(target_os = "linux"))]
    let _ = cmd;
}

/// Waits for the leader to end, its time limit or its cancellation; the leader is reaped.
fn watch_and_stop(
    process: &Process,
    cancel: &Cancel,
    child: &mut Child,
    group: i32,
    started: Instant,
) -> Result<Run, RunError> {
    let watch = ExitWatch::new(group);
    loop {
        match child.try_wait() {
            Ok(Some(status)) => {
                let ended = match status.code() {
                    Some(code) => ProcessEnd::Exited(code),
                    None => ProcessEnd::Signalled(status.signal().unwrap_or(0)),
                };
                break Ok(Run {
                    ended,
                    duration: started.elapsed(),
                });
            }
            Ok(None) => {}
            Err(e) => {
                stop_group(child, &watch, group, Duration::ZERO, cancel);
                break Err(RunError::Wait(e));
            }
        }
        if cancel.is_cancelled() {
            let grace = if cancel.is_hurried() {
                HURRIED_GRACE.min(process.grace)
            } else {
                process.grace
            };
            stop_group(child, &watch, group, grace, cancel);
            break Err(RunError::Cancelled);
        }
        let elapsed = started.elapsed();
        if let Some(limit) = process.timeout {
            if elapsed >= limit {
                stop_group(child, &watch, group, process.grace, cancel);
                break Ok(Run {
                    ended: ProcessEnd::TimedOut,
                    duration: elapsed,
                });
            }
            // Wake on exit at once, but at least every 10 ms to notice cancellation.
            watch.wait((limit - elapsed).min(Duration::from_millis(10)));
        } else {
            watch.wait(Duration::from_millis(10));
        }
    }
}

/// Stops a running leader and its group: SIGTERM to the group, up to `grace` for the leader to
/// exit, then SIGKILL to the group; the leader is reaped. A grace under way is cut short to
/// [`HURRIED_GRACE`] when `cancel` is hurried (a second Ctrl-C while tests wait out the first's
/// grace).
fn stop_group(child: &mut Child, watch: &ExitWatch, group: i32, grace: Duration, cancel: &Cancel) {
    signal_group(group, libc::SIGTERM);
    let started = Instant::now();
    let mut deadline = started + grace;
    while Instant::now() < deadline {
        if matches!(child.try_wait(), Ok(Some(_))) {
            break;
        }
        if cancel.is_hurried() {
            deadline = deadline.min(started.max(Instant::now()) + HURRIED_GRACE.min(grace));
        }
        watch.wait(
            (deadline.saturating_duration_since(Instant::now())).min(Duration::from_millis(10)),
        );
    }
    signal_group(group, libc::SIGKILL);
    let _ = child.wait();
}

/// After the leader is gone: stops what is left of its group, SIGTERM first and SIGKILL after
/// `grace` if anything still answers.
fn clear_group(group: i32, grace: Duration, cancel: &Cancel) {
    if !group_exists(group) {
        return;
    }
    signal_group(group, libc::SIGTERM);
    let deadline = Instant::now() + grace;
    while Instant::now() < deadline && group_exists(group) && !cancel.is_hurried() {
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

/// Sends SIGKILL to the group of every command running now, at once and without waiting: for
/// a program that must exit this moment (a third Ctrl-C), so that no test outlives it. Does not
/// block: if the list of commands is busy, it is read anyway.
pub fn kill_running() -> usize {
    let running = match LEADERS.try_lock() {
        Ok(guard) => guard.clone(),
        Err(std::sync::TryLockError::Poisoned(e)) => e.into_inner().clone(),
        // Held by a thread that is starting or reaping a command: a moment later it is free.
        Err(std::sync::TryLockError::WouldBlock) => leaders().clone(),
    };
    for &group in &running {
        signal_group(group, libc::SIGKILL);
    }
    running.len()
}

/// Stops every orphan this process adopted that a command started, marked or not (one that
/// cleared its environment included), and reaps it: for a program's last moment, when no
/// command runs any more. Returns how many were found. Linux only; elsewhere it finds none.
pub fn stop_orphans(grace: Duration) -> usize {
    stop_marked(None, grace)
}

/// What a sweep of this process's children found: orphans to stop (pid, and whether it
/// leads its own group).
type Orphans = Vec<(i32, bool)>;

/// Stops the orphans whose environment carries `mark` (all orphans when `None`): SIGTERM to
/// each (to its whole group when it leads one), up to `grace` for them to go, then SIGKILL;
/// then again for what their ends left orphaned in turn. Returns how many were stopped.
fn stop_marked(mark: Option<&str>, grace: Duration) -> usize {
    let wanted = mark.map(|m| format!("{MARK_VARIABLE}={m}").into_bytes());
    let mut stopped = 0;
    // A daemon's own children become orphans only when it dies: a few rounds catch them.
    for _ in 0..8 {
        let found = {
            let running = leaders();
            let found = sweep(&running, wanted.as_deref());
            for &(pid, leads) in &found {
                signal_orphan(pid, leads, libc::SIGTERM);
            }
            found
        };
        if found.is_empty() {
            break;
        }
        stopped += found.len();
        let deadline = Instant::now() + grace;
        let mut left = found;
        loop {
            {
                let running = leaders();
                // Reaps those that went; a pid still listed is an unreaped child, so it
                // cannot have been reused and may still be signalled.
                let alive = children(&running);
                left.retain(|(pid, _)| alive.contains(pid));
                if left.is_empty() {
                    break;
                }
                if Instant::now() >= deadline {
                    for &(pid, leads) in &left {
                        signal_orphan(pid, leads, libc::SIGKILL);
                    }
                    break;
                }
            }
            std::thread::sleep(Duration::from_millis(2));
        }
        if !left.is_empty() {
            // Killed: wait (briefly) for them to become zombies, and reap them.
            let until = Instant::now() + Duration::from_secs(1);
            while Instant::now() < until {
                let alive = children(&leaders());
                left.retain(|(pid, _)| alive.contains(pid));
                if left.is_empty() {
                    break;
                }
                std::thread::sleep(Duration::from_millis(1));
            }
        }
    }
    stopped
}

fn signal_orphan(pid: i32, leads_group: bool, signal: i32) {
    // SAFETY: kill and killpg only send a signal. The pid is an unreaped child of this
    // process (the caller holds the leaders' lock, and only sweeps under it reap orphans),
    // so neither it nor the group it leads can have been reused.
    unsafe {
        if leads_group {
            libc::killpg(pid, signal);
        } else {
            libc::kill(pid, signal);
        }
    }
}

/// Reaps this process's orphaned children that have ended and lists the living ones
/// carrying `wanted` in their environment (all when `None`). Commands in `running` are
/// never touched.
fn sweep(running: &[i32], wanted: Option<&[u8]>) -> Orphans {
    let mut found = Vec::new();
    for pid in children(running) {
        let Some(stat) = Stat::read(pid) else {
            continue;
        };
        let marked = match wanted {
            None => true,
            Some(want) => std::fs::read(format!("/proc/{pid}/environ"))
                .is_ok_and(|env| env.split(|&b| b == 0).any(|entry| entry == want)),
        };
        if marked {
            found.push((pid, stat.group == pid));
        }
    }
    found
}

/// This process's living children other than the commands `running`, after reaping those
/// of them that ended (zombies). Children in this process's own group are left alone: they
/// were started by someone else than [`run`], which puts each command in a group of its own.
fn children(running: &[i32]) -> Vec<i32> {
    let own_group = {
        // SAFETY: getpgrp has no arguments and cannot fail.
        unsafe { libc::getpgrp() }
    };
    let mut alive = Vec::new();
    for pid in child_pids() {
        if running.contains(&pid) {
            continue;
        }
        let Some(stat) = Stat::read(pid) else {
            continue;
        };
        if stat.group == own_group {
            continue;
        }
        if stat.state == b'Z' || stat.state == b'X' {
            // SAFETY: waitid writes into the zeroed siginfo it is given; the pid is a child
            // that is not a running command, so no `run` waits for it.
            unsafe {
                let mut info: libc::siginfo_t = std::mem::zeroed();
                libc::waitid(
                    libc::P_PID,
                    pid as libc::id_t,
                    &mut info,
                    libc::WEXITED | libc::WNOHANG,
                );
            }
        } else {
            alive.push(pid);
        }
    }
    alive
}

/// The process ids of this process's children, from every thread's `children` list in
/// /proc (or from a scan of /proc where the kernel has no such lists).
fn child_pids() -> Vec<i32> {
    let mut pids: Vec<i32> = Vec::new();
    let Ok(tasks) = std::fs::read_dir("/proc/self/task") else {
        return pids;
    };
    for task in tasks.flatten() {
        match std::fs::read_to_string(task.path().join("children")) {
            Ok(list) => pids.extend(
                list.split_whitespace()
                    .filter_map(|p| p.parse::<i32>().ok()),
            ),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return scan_for_children(),
            Err(_) => {}
        }
    }
    pids
}

fn scan_for_children() -> Vec<i32> {
    let me = std::process::id() as i32;
    let Ok(entries) = std::fs::read_dir("/proc") else {
        return Vec::new();
    };
    entries
        .flatten()
        .filter_map(|e| e.file_name().to_str()?.parse::<i32>().ok())
        .filter(|&pid| Stat::read(pid).is_some_and(|s| s.parent == me))
        .collect()
}

/// The fields of /proc/PID/stat a sweep needs.
struct Stat {
    state: u8,
    parent: i32,
    group: i32,
}

impl Stat {
    fn read(pid: i32) -> Option<Stat> {
        let text = std::fs::read(format!("/proc/{pid}/stat")).ok()?;
        // The command name is in parentheses and may hold anything: read after the last one.
        let close = text.iter().rposition(|&b| b == b')')?;
        let rest = std::str::from_utf8(text.get(close + 2..)?).ok()?;
        let mut fields = rest.split(' ');
        let state = *fields.next()?.as_bytes().first()?;
        let parent = fields.next()?.parse().ok()?;
        let group = fields.next()?.parse().ok()?;
        Some(Stat {
            state,
            parent,
            group,
        })
    }
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

    /// A second Ctrl-C (a hurry) while tests wait out the first one's grace kills them then,
    /// not at the end of the grace: here a grace of two minutes, for a test that ignores
    /// SIGTERM.
    #[test]
    fn a_hurry_cuts_a_grace_under_way_short() {
        let dir = tempfile::tempdir().unwrap();
        let started = dir.path().join("started");
        let mut p = sh(&format!(
            "trap '' TERM; touch {}; sleep 300",
            started.display()
        ));
        p.grace = Duration::from_secs(120);
        let control = Control::new();
        let cancel = Cancel::child_of(&control);
        let began = Instant::now();
        let runner = std::thread::spawn(move || run(&p, &cancel));
        while !started.exists() {
            assert!(
                began.elapsed() < Duration::from_secs(60),
                "the test never started"
            );
            std::thread::sleep(Duration::from_millis(10));
        }
        control.stop();
        // Well into the grace: the group ignored its SIGTERM.
        std::thread::sleep(Duration::from_millis(300));
        control.hurry();
        let result = runner.join().unwrap();
        assert!(matches!(result, Err(RunError::Cancelled)), "{result:?}");
        assert!(
            began.elapsed() < Duration::from_secs(90),
            "the grace was waited out: {:?}",
            began.elapsed()
        );
    }

    #[test]
    fn exit_status_and_signals_are_reported() {
        let r = run(&sh("exit 7"), &Cancel::never()).unwrap();
        assert_eq!(r.ended, ProcessEnd::Exited(7));
        let r = run(&sh("kill -SEGV $$"), &Cancel::never()).unwrap();
        assert_eq!(r.ended, ProcessEnd::Signalled(libc::SIGSEGV));
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
        assert_eq!(r.ended, ProcessEnd::TimedOut);
        assert!(flag.exists(), "the TERM trap did not run");
    }

    #[test]
    fn a_command_ignoring_sigterm_is_killed_after_the_grace() {
        let mut p = sh("trap '' TERM; sleep 10");
        p.timeout = Some(Duration::from_millis(100));
        p.grace = Duration::from_millis(200);
        let started = Instant::now();
        let r = run(&p, &Cancel::never()).unwrap();
        assert_eq!(r.ended, ProcessEnd::TimedOut);
        assert!(started.elapsed() < Duration::from_secs(5));
    }

    /// Whether `pid` names a living process (not a zombie).
    fn alive(pid: i32) -> bool {
        Stat::read(pid).is_some_and(|s| s.state != b'Z' && s.state != b'X')
    }

    fn pid_in(path: &std::path::Path) -> i32 {
        std::fs::read_to_string(path)
            .unwrap()
            .trim()
            .parse()
            .unwrap()
    }

    #[test]
    fn a_daemon_in_a_session_of_its_own_goes_with_its_command() {
        let dir = tempfile::tempdir().unwrap();
        let (one, two) = (dir.path().join("one"), dir.path().join("two"));
        // One daemon alone, one leading a session with a child of its own.
        let script = format!(
            "setsid sleep 30 & echo $! > {one}; setsid sh -c 'sleep 30 & echo $! > {two}; wait' & \
             while [ ! -s {two} ]; do sleep 0.01; done",
            one = one.display(),
            two = two.display()
        );
        let r = run(&sh(&script), &Cancel::never()).unwrap();
        assert_eq!(r.ended, ProcessEnd::Exited(0));
        for file in [&one, &two] {
            assert!(wait_for_file(file));
            assert!(!alive(pid_in(file)), "{} still runs", file.display());
        }
    }

    fn wait_for_file(path: &std::path::Path) -> bool {
        let until = Instant::now() + Duration::from_secs(10);
        while Instant::now() < until {
            if std::fs::read_to_string(path).is_ok_and(|t| t.ends_with('\n')) {
                return true;
            }
            std::thread::sleep(Duration::from_millis(5));
        }
        false
    }

    #[test]
    fn a_running_commands_daemon_outlives_other_commands_ends() {
        let dir = tempfile::tempdir().unwrap();
        let pid = dir.path().join("pid");
        let gate = dir.path().join("gate");
        // The subshell exits at once, so the daemon is an orphan while its command still runs.
        let script = format!(
            "(setsid sleep 30 & echo $! > {pid}); while [ ! -e {gate} ]; do sleep 0.01; done; kill -0 $(cat {pid})",
            pid = pid.display(),
            gate = gate.display()
        );
        let long = std::thread::spawn(move || run(&sh(&script), &Cancel::never()).unwrap());
        assert!(wait_for_file(&pid));
        // Other commands end (and sweep) while the daemon is an orphan of the first one.
        for _ in 0..5 {
            run(&sh("exit 0"), &Cancel::never()).unwrap();
        }
        let daemon = pid_in(&pid);
        assert!(alive(daemon), "another command's end stopped the daemon");
        std::fs::write(&gate, "").unwrap();
        let r = long.join().unwrap();
        assert_eq!(
            r.ended,
            ProcessEnd::Exited(0),
            "the daemon was gone before its command ended"
        );
        assert!(!alive(daemon), "the daemon outlived its command");
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
