//! The lock beside an input reduced in place, so that two runs never rewrite one file (or tree)
//! at once: each would take the other's writes for an edit by the user.
//!
//! Main type: [`InputLock`], held for the whole run: a file `.NAME.myhill-lock` beside INPUT,
//! locked with flock (released by the kernel however the process ends) and holding the
//! holder's process id and run directory; it is removed when the run ends. A second run on the
//! same INPUT is refused with a message naming the first.
//!
//! Limits: flock is advisory and local: a run on another machine over NFS is not seen, nor a
//! run of an older myhill.

use std::fs::{File, OpenOptions};
use std::io::{Read, Seek, SeekFrom, Write};
use std::os::fd::AsRawFd;
use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};

/// A held lock on an input; removed on drop.
pub struct InputLock {
    file: File,
    path: PathBuf,
}

/// Where the lock of `input` is: beside it, hidden.
pub fn lock_path(input: &Path) -> PathBuf {
    let name = input
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| "input".into());
    let parent = input
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    parent.join(format!(".{name}.myhill-lock"))
}

impl InputLock {
    /// Takes the lock of `input`, or says which run holds it.
    pub fn take(input: &Path) -> Result<InputLock, String> {
        let path = lock_path(input);
        loop {
            let mut file = OpenOptions::new()
                .create(true)
                .truncate(false)
                .read(true)
                .write(true)
                .open(&path)
                .map_err(|e| format!("cannot make the lock {}: {e}", path.display()))?;
            // SAFETY: flock on a descriptor this function owns.
            let locked = unsafe { libc::flock(file.as_raw_fd(), libc::LOCK_EX | libc::LOCK_NB) };
            if locked != 0 {
                let mut holder = String::new();
                let _ = file.read_to_string(&mut holder);
                let mut lines = holder.lines();
                let pid = lines.next().unwrap_or("").trim();
                let run = lines.next().unwrap_or("").trim();
                let mut who = String::from("another myhill");
                if !pid.is_empty() {
                    who += &format!(" (process {pid}");
                    if !run.is_empty() {
                        who += &format!(", run directory {run}");
                    }
                    who += ")";
                }
                return Err(format!(
                    "{} is being reduced in place by {who}: two runs would destroy each \
                     other's results; wait for it to end or stop it (Ctrl-C), or reduce a copy \
                     (-o FILE writes the result elsewhere)",
                    input.display()
                ));
            }
            // The holder before us may have removed the file between our open and our lock:
            // then the lock is on a file nobody else will find, and we start over.
            let same = match (file.metadata(), std::fs::metadata(&path)) {
                (Ok(ours), Ok(there)) => ours.ino() == there.ino() && ours.dev() == there.dev(),
                _ => false,
            };
            if same {
                let mut lock = InputLock { file, path };
                lock.note_run(None);
                return Ok(lock);
            }
        }
    }

    /// Writes this process's id and its run directory (if any) into the lock, for the message
    /// of a run refused.
    pub fn note_run(&mut self, run_dir: Option<&Path>) {
        let mut text = format!("{}\n", std::process::id());
        if let Some(dir) = run_dir {
            text += &format!("{}\n", dir.display());
        }
        let _ = self.file.set_len(0);
        let _ = self.file.seek(SeekFrom::Start(0));
        let _ = self.file.write_all(text.as_bytes());
    }
}

impl Drop for InputLock {
    fn drop(&mut self) {
        // Removed while still held, so no other run can be between its open and its lock
        // with this file and believe it holds a lock that is gone.
        let _ = std::fs::remove_file(&self.path);
    }
}
