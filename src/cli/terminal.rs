//! The terminal under a live run: its width, and single keys read without Enter while the run lasts.
//!
//! Keys need the terminal out of line mode (no echo, no waiting for Enter); signals stay on,
//! so Ctrl-C still reaches the signal handler. The mode is restored when the [`Keys`] guard is
//! dropped (every return and unwind) and by [`restore`], which the signal handler calls before
//! its immediate exit on a third Ctrl-C.

use rustix::termios::{LocalModes, OptionalActions, SpecialCodeIndex, Termios};
use std::io::IsTerminal;
use std::os::fd::AsFd;
use std::sync::Arc;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, Ordering};
use std::thread::JoinHandle;
use std::time::Duration;

/// The terminal's settings before keys were turned on, to put back.
static SAVED: Mutex<Option<Termios>> = Mutex::new(None);

/// The width of the terminal stderr is on, if it is one.
pub fn width() -> Option<usize> {
    let size = rustix::termios::tcgetwinsize(std::io::stderr().as_fd()).ok()?;
    (size.ws_col > 0).then_some(usize::from(size.ws_col))
}

/// The width of the terminal stdout is on, if it is one.
pub fn stdout_width() -> Option<usize> {
    let size = rustix::termios::tcgetwinsize(std::io::stdout().as_fd()).ok()?;
    (size.ws_col > 0).then_some(usize::from(size.ws_col))
}

/// Puts the terminal back as it was before [`Keys::start`]; harmless when it is.
pub fn restore() {
    let saved = SAVED.lock().unwrap_or_else(|e| e.into_inner()).take();
    if let Some(termios) = saved {
        let _ =
            rustix::termios::tcsetattr(std::io::stdin().as_fd(), OptionalActions::Now, &termios);
    }
}

/// Whether this process may read the terminal on stdin: a background job that tried would be
/// stopped by the kernel (SIGTTIN, and SIGTTOU for changing its mode).
pub fn in_foreground() -> bool {
    let stdin = std::io::stdin();
    stdin.is_terminal()
        && rustix::termios::tcgetpgrp(stdin.as_fd())
            .is_ok_and(|group| group == rustix::process::getpgrp())
}

/// Keys read on their own thread while it lives; the terminal's mode is restored on drop.
pub struct Keys {
    done: Arc<AtomicBool>,
    reader: Option<JoinHandle<()>>,
}

impl Keys {
    /// Turns off line mode and echo and hands every key to `on_key`; `None` when stdin is not
    /// the terminal of a foreground job.
    pub fn start(mut on_key: impl FnMut(u8) + Send + 'static) -> Option<Keys> {
        if !in_foreground() {
            return None;
        }
        let stdin = std::io::stdin();
        let original = rustix::termios::tcgetattr(stdin.as_fd()).ok()?;
        let mut keys = original.clone();
        keys.local_modes
            .remove(LocalModes::ICANON | LocalModes::ECHO);
        keys.special_codes[SpecialCodeIndex::VMIN] = 1;
        keys.special_codes[SpecialCodeIndex::VTIME] = 0;
        *SAVED.lock().unwrap_or_else(|e| e.into_inner()) = Some(original);
        if rustix::termios::tcsetattr(stdin.as_fd(), OptionalActions::Now, &keys).is_err() {
            restore();
            return None;
        }
        let done = Arc::new(AtomicBool::new(false));
        let stop = done.clone();
        let reader = std::thread::spawn(move || {
            let stdin = std::io::stdin();
            let timeout = rustix::event::Timespec {
                tv_sec: 0,
                tv_nsec: Duration::from_millis(100).as_nanos() as _,
            };
            // Polled with a timeout, so the thread sees the end of the run and a blocked read
            // never outlives it.
            while !stop.load(Ordering::SeqCst) {
                let mut fds = [rustix::event::PollFd::new(
                    &stdin,
                    rustix::event::PollFlags::IN,
                )];
                match rustix::event::poll(&mut fds, Some(&timeout)) {
                    Ok(0) => continue,
                    Ok(_) => {}
                    Err(rustix::io::Errno::INTR) => continue,
                    Err(_) => return,
                }
                let mut byte = [0u8; 1];
                match rustix::io::read(stdin.as_fd(), &mut byte) {
                    Ok(1) => on_key(byte[0]),
                    Ok(_) => return,
                    Err(rustix::io::Errno::INTR) => {}
                    Err(_) => return,
                }
            }
        });
        Some(Keys {
            done,
            reader: Some(reader),
        })
    }
}

impl Drop for Keys {
    fn drop(&mut self) {
        self.done.store(true, Ordering::SeqCst);
        if let Some(reader) = self.reader.take() {
            let _ = reader.join();
        }
        restore();
    }
}
