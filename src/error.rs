//! What can go wrong before or around a reduction, as one typed [`Error`].
//!
//! Each variant says what is wrong and its message names the fix; the command line maps the
//! variants to exit codes in one place. What stops a reduction that is under way (a budget, an
//! interruption, a test that can no longer run) is not an error but a [`crate::Stop`]: the best
//! so far is kept and reported.
//!
//! ```
//! use myhill::{Error, Strategy};
//! match Strategy::named("nope") {
//!     Err(Error::UnknownStrategy { name, .. }) => assert_eq!(name, "nope"),
//!     _ => unreachable!(),
//! }
//! ```
//!
//! Limits: the messages are English prose meant for a terminal.

use crate::oracle::Outcome;
use std::fmt;
use std::path::PathBuf;

/// Why myhill cannot do what was asked.
#[derive(Debug)]
#[non_exhaustive]
pub enum Error {
    /// The test command cannot be used (empty, bad quotes, missing, not executable).
    BadTest(String),
    /// An option or argument is out of range or malformed.
    BadOption(String),
    /// No strategy has this name.
    UnknownStrategy {
        /// The name asked for.
        name: String,
        /// The names there are, comma-separated.
        known: String,
    },
    /// No pass has this name.
    UnknownPass {
        /// The name asked for.
        name: String,
        /// The names there are, comma-separated.
        known: String,
    },
    /// The test does not find the unchanged original interesting.
    NotInteresting(Box<Outcome>),
    /// The test hangs on the unchanged original.
    Hangs(Box<Outcome>),
    /// The test gives different verdicts on the unchanged original.
    Flaky(Vec<Outcome>),
    /// Interrupted before the reduction began; nothing was changed.
    Interrupted,
    /// The test could not be run at all.
    Oracle(String),
    /// A run directory cannot be made, resumed or trusted.
    RunDir(String),
    /// A file could not be read or written.
    Io {
        /// What was being done, such as "read the input".
        what: &'static str,
        /// The file.
        path: PathBuf,
        /// The system's reason.
        source: std::io::Error,
    },
}

/// How a run ended, as the end of a sentence whose subject is the test.
fn how_it_ended(outcome: &Outcome) -> String {
    match (outcome.verdict, outcome.exit_code, outcome.signal) {
        (crate::oracle::Verdict::TimedOut, _, _) => {
            format!("timed out after {:.1}s", outcome.duration.as_secs_f64())
        }
        (_, Some(code), _) => format!("exited with status {code}"),
        (_, None, Some(signal)) => match signal_name(signal) {
            Some(name) => format!("was killed by signal {signal} ({name})"),
            None => format!("was killed by signal {signal}"),
        },
        (_, None, None) => "ended with no exit status".to_string(),
    }
}

/// The usual name of a signal that ends programs.
fn signal_name(signal: i32) -> Option<&'static str> {
    Some(match signal {
        libc::SIGHUP => "SIGHUP",
        libc::SIGINT => "SIGINT",
        libc::SIGQUIT => "SIGQUIT",
        libc::SIGILL => "SIGILL",
        libc::SIGTRAP => "SIGTRAP",
        libc::SIGABRT => "SIGABRT",
        libc::SIGBUS => "SIGBUS",
        libc::SIGFPE => "SIGFPE",
        libc::SIGKILL => "SIGKILL",
        libc::SIGSEGV => "SIGSEGV",
        libc::SIGPIPE => "SIGPIPE",
        libc::SIGALRM => "SIGALRM",
        libc::SIGTERM => "SIGTERM",
        libc::SIGXCPU => "SIGXCPU",
        libc::SIGXFSZ => "SIGXFSZ",
        libc::SIGSYS => "SIGSYS",
        _ => return None,
    })
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::BadTest(msg) | Error::BadOption(msg) | Error::Oracle(msg) => f.write_str(msg),
            Error::UnknownStrategy { name, known } => {
                write!(f, "unknown strategy {name:?}; choose one of: {known}")
            }
            Error::UnknownPass { name, known } => {
                write!(
                    f,
                    "unknown pass {name:?}; the passes are: {known} (see --list-passes)"
                )
            }
            Error::NotInteresting(outcome) => write!(
                f,
                "the original is not interesting: on the unchanged input the test {}",
                how_it_ended(outcome)
            ),
            Error::Hangs(outcome) => write!(
                f,
                "the test hangs on the original: it was stopped after {:.1}s. Give it more time \
                 with --timeout SECS, or, if the hang is the bug, pass --timeout-is-interesting",
                outcome.duration.as_secs_f64()
            ),
            Error::Flaky(outcomes) => {
                let list: Vec<String> = outcomes.iter().map(Outcome::describe).collect();
                write!(
                    f,
                    "the test is flaky: on the unchanged original it gave different verdicts \
                     ({}). Make it deterministic (fixed seeds, no timing, no shared state), or \
                     pass --allow-flaky to re-confirm every reduction",
                    list.join(", ")
                )
            }
            Error::Interrupted => {
                f.write_str("interrupted during the first check; nothing was changed")
            }
            Error::RunDir(msg) => f.write_str(msg),
            Error::Io { what, path, source } => {
                write!(f, "cannot {what} {}: {source}", path.display())
            }
        }
    }
}

impl std::error::Error for Error {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Error::Io { source, .. } => Some(source),
            _ => None,
        }
    }
}
