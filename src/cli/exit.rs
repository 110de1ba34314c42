//! Every exit code of the binary, and how each failure maps to one.

use myhill::Error;

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
        match error {
            Error::NotInteresting(_) | Error::Hangs(_) => Exit::NotInteresting,
            Error::Flaky(_) => Exit::Flaky,
            Error::Interrupted => Exit::Interrupted,
            _ => Exit::Usage,
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
