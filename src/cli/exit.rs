//! Every exit code of the binary, how a subcommand ended ([`Ended`], the one type for it), and
//! how each of those and each failure maps to a code: in this file alone. Every subcommand
//! (`reduce`, `check`, `compare`, `bisect`, `runs`, ...) answers with an [`Ended`] or a
//! [`Fail`] that carries one, and [`Ended::exit`] alone picks the code.

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
}

/// How a subcommand ended: the one answer, which names a reduction's end in the stats file
/// and gives the process's exit code.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ended {
    /// The work is done: a reduction's schedule ran to its end, `check` found the file
    /// minimal, `bisect` found the change, `compare` and `runs` did what was asked.
    Done,
    /// `check`: the file is not minimal (exit 1).
    NotMinimal,
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
            Ended::NotMinimal => "not_minimal",
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
            None | Some(Stop::SkipPass | Stop::HandOver) => Ended::Done,
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
            Ended::NotMinimal => Exit::NotMinimal,
            Ended::Interrupted => Exit::Interrupted,
            Ended::TestError | Ended::SetupError => Exit::Usage,
            Ended::NotInteresting | Ended::Hangs => Exit::NotInteresting,
            Ended::Flaky => Exit::Flaky,
            Ended::Trivial => Exit::Trivial,
        }
    }
}

/// A failure: how it ended the subcommand (which gives its exit code) and a message that
/// names the fix.
#[derive(Debug)]
pub struct Fail {
    pub ended: Ended,
    pub message: String,
}

impl Fail {
    /// A usage or setup error.
    pub fn usage(message: impl Into<String>) -> Fail {
        Fail {
            ended: Ended::SetupError,
            message: message.into(),
        }
    }
}

impl From<Error> for Fail {
    fn from(error: Error) -> Fail {
        Fail {
            ended: Ended::of_error(&error),
            message: error.to_string(),
        }
    }
}
