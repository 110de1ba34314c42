//! Every exit code of the binary, how a reduction ended ([`Ended`], the one type for it), and
//! how each of those and each failure maps to a code: in this file alone.

use myhill::{Error, Stop};

/// The process's exit status.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Exit {
    /// Done (also when `--max-tests` ran out); `check`: the file is minimal.
    Ok = 0,
    /// `check`: the file is not minimal.
    NotMinimal = 1,
    /// A usage or setup error: a bad option, a missing input, a test that cannot run.
    Usage = 2,
    /// The original is not interesting, or the test hangs on it.
    NotInteresting = 3,
    /// The test is flaky on the original.
    Flaky = 4,
    /// The result has at most one byte: the test accepts almost anything.
    Trivial = 5,
    /// Interrupted; the best so far is on disk.
    Interrupted = 130,
}

impl Exit {
    /// The number the process exits with.
    pub fn code(self) -> i32 {
        self as i32
    }

    /// The exit that a library error calls for.
    pub fn of(error: &Error) -> Exit {
        Ended::of_error(error).exit()
    }
}

/// How a reduction ended: the one answer, which names it in the stats file and gives the
/// process's exit code.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ended {
    /// The schedule ran to its end.
    Done,
    /// `--max-tests` ran out.
    Budget,
    /// Ctrl-C, SIGTERM or `q`.
    Interrupted,
    /// The test could no longer be run during the reduction.
    TestError,
    /// The original is not interesting (exit 3).
    NotInteresting,
    /// The test hangs on the original (exit 3).
    Hangs,
    /// The test is flaky on the original (exit 4).
    Flaky,
    /// The result has at most one byte (exit 5).
    Trivial,
    /// A usage or setup error before or around the reduction (exit 2).
    SetupError,
}

impl Ended {
    /// The name in the file.
    pub fn name(self) -> &'static str {
        match self {
            Ended::Done => "done",
            Ended::Budget => "budget",
            Ended::Interrupted => "interrupted",
            Ended::TestError => "test_error",
            Ended::NotInteresting => "not_interesting",
            Ended::Hangs => "hangs",
            Ended::Flaky => "flaky",
            Ended::Trivial => "trivial",
            Ended::SetupError => "setup_error",
        }
    }

    /// How a finished reduction ended.
    pub fn of_stop(stop: Option<&Stop>) -> Ended {
        match stop {
            None | Some(Stop::SkipPass) => Ended::Done,
            Some(Stop::Budget) => Ended::Budget,
            Some(Stop::Interrupted) => Ended::Interrupted,
            Some(Stop::Oracle(_)) => Ended::TestError,
        }
    }

    /// How a library error ended the run.
    pub fn of_error(error: &Error) -> Ended {
        match error {
            Error::NotInteresting(_) => Ended::NotInteresting,
            Error::Hangs(_) => Ended::Hangs,
            Error::Flaky(_) => Ended::Flaky,
            Error::Interrupted => Ended::Interrupted,
            _ => Ended::SetupError,
        }
    }

    /// The exit code: the only mapping from how a run ended to a code.
    pub fn exit(self) -> Exit {
        match self {
            Ended::Done | Ended::Budget => Exit::Ok,
            Ended::Interrupted => Exit::Interrupted,
            Ended::TestError | Ended::SetupError => Exit::Usage,
            Ended::NotInteresting | Ended::Hangs => Exit::NotInteresting,
            Ended::Flaky => Exit::Flaky,
            Ended::Trivial => Exit::Trivial,
        }
    }

    /// How a failure ended the run, when only its exit code is known.
    pub fn of_exit(exit: Exit) -> Ended {
        match exit {
            Exit::NotInteresting => Ended::NotInteresting,
            Exit::Flaky => Ended::Flaky,
            Exit::Trivial => Ended::Trivial,
            Exit::Interrupted => Ended::Interrupted,
            Exit::Ok | Exit::NotMinimal | Exit::Usage => Ended::SetupError,
        }
    }
}

/// A failure with its exit code and a message that names the fix.
#[derive(Debug)]
pub struct Fail {
    pub exit: Exit,
    pub message: String,
}

impl Fail {
    /// A usage or setup error.
    pub fn usage(message: impl Into<String>) -> Fail {
        Fail {
            exit: Exit::Usage,
            message: message.into(),
        }
    }
}

impl From<Error> for Fail {
    fn from(error: Error) -> Fail {
        Fail {
            exit: Exit::of(&error),
            message: error.to_string(),
        }
    }
}
