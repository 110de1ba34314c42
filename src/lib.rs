//! myhill: a test-case reducer. It shrinks an input that makes a program misbehave to a small
//! one that still does, running the user's test as few times as it can.
//!
//! The library holds all the work; the `myhill` binary is parsing, file I/O and rendering
//! around it. A library user gets the same guarantees as the command line with a few lines:
//!
//! ```no_run
//! use myhill::{Event, ReduceOptions, Reduction, Strategy, TestCommand, TestSpec};
//! let input = std::fs::read("crash.c")?;
//! let oracle = TestCommand::new(TestSpec::parse("./still-crashes.sh", "crash.c")?);
//! let options = ReduceOptions { jobs: 4, ..ReduceOptions::default() };
//! let mut reduction = Reduction::new(input, &oracle, options);
//! reduction.on_event(|e| {
//!     if let Event::Reduced { bytes, .. } = e {
//!         eprintln!("now {} bytes", bytes.len());
//!     }
//! });
//! // The first check, re-runs between passes, rollback and the final confirmation included.
//! let finished = reduction.run(&mut Strategy::named("default")?.schedule())?;
//! std::fs::write("crash.small.c", &finished.best)?;
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! The root holds what running a reduction needs: [`Reduction`], [`ReduceOptions`],
//! [`Strategy`], [`TestCommand`] and [`TestSpec`] (or any [`Oracle`], such as [`FnOracle`]),
//! and what comes back ([`Finished`], [`Report`], [`Event`], [`Stop`], [`Error`]). The rest
//! lives in modules named for what they hold:
//! - [`passes`]: every pass, the [`passes::Pass`] trait, [`passes::Schedule`] and the pass
//!   context [`passes::Cx`], the one way a pass reaches the best and acceptance;
//! - [`policy`]: the flat and tree policies ([`policy::DDMin`], [`policy::ProbDD`], ...);
//! - [`tree`]: the trees the tree policies walk, and the one [`tree::Nesting`] of an input;
//! - [`text`]: lexemes, kinds of input, [`text::Units`] and [`text::IdSet`];
//! - [`strategy`]: the registry of strategies and passes by name;
//! - [`eval`]: the one evaluation path ([`eval::Evaluator`]: content cache, worker pool);
//! - [`process`]: running the user's test, the one place a process starts ([`process::run`]);
//! - [`report`]: the figures and counters of a run;
//! - [`runs`]: run directories, their steps and verdicts, listing and pruning;
//! - [`check`]: the `check` and `bisect` questions ([`check::certify`], [`check::first_bad`]);
//! - [`archive`]: a directory tree as one input.
//!
//! Layers, top down (a lower one never imports a higher one; `tests/layers.rs` checks it): the
//! reduction; passes and policies, which only propose candidates through a [`passes::Cx`] to
//! its driver, the only place a candidate is accepted; the evaluator; the test command; at the
//! bottom lexemes, units and id sets.
//!
//! The seeds' bare reduce loop is [`passes::Cx::run_policy`]:
//!
//! ```
//! use myhill::FnOracle;
//! use myhill::eval::EvalOptions;
//! use myhill::passes::Cx;
//! use myhill::policy::{DDMin, Policy};
//! use myhill::text::{Granularity, Units};
//! // Interesting iff the lines "b" and "d" survive, in order.
//! let oracle = FnOracle::new(|c: &[u8]| {
//!     let lines: Vec<&[u8]> = c.split(|&b| b == b'\n').collect();
//!     let b = lines.iter().position(|l| *l == b"b");
//!     let d = lines.iter().position(|l| *l == b"d");
//!     matches!((b, d), (Some(b), Some(d)) if b < d)
//! });
//! let mut cx = Cx::new(b"a\nb\nc\nd\ne\n".to_vec(), &oracle, EvalOptions::default());
//! let units = Units::cut(cx.best(), Granularity::Lines);
//! cx.run_policy(&units, &mut (Box::new(DDMin) as Box<dyn Policy>)).unwrap();
//! assert_eq!(cx.best(), b"b\nd\n");
//! ```

#![warn(missing_docs)]
// A function over 100 lines is split into named steps (clippy counts its code lines).
#![warn(clippy::too_many_lines)]

pub mod archive;
mod bisect;
mod capture;
mod certify;
mod command;
mod cx;
mod dfa;
mod driver;
mod error;
pub mod eval;
mod idset;
mod kind;
mod ledger;
mod lex;
mod oracle;
pub mod passes;
pub mod policy;
mod reduction;
pub mod report;
mod rounds;
mod run_dir;
mod schedule;
pub mod strategy;
mod sweeps;
mod test_command;
pub mod tree;
mod units;

pub use error::Error;
pub use oracle::{FnOracle, Oracle, Verdict};
pub use reduction::{Finished, ReduceOptions, Reduction};
pub use report::{Event, Report, Stop};
pub use strategy::Strategy;
pub use test_command::{TestCommand, TestSpec};

/// The bytes an input is cut into: lexemes, kinds of input, units and sets of unit ids.
pub mod text {
    pub use crate::idset::{IdSet, RankIndex};
    pub use crate::kind::{Decided, DecidedBy, Kind};
    pub use crate::lex::{Class, Lexeme, lex};
    pub use crate::units::{Granularity, ParseGranularityError, Units};
}

/// Running the user's test: processes, their outcomes, cancellation and timeouts.
pub mod process {
    pub use crate::command::{
        DEFAULT_GRACE, Process, ProcessEnd, Run, RunError, kill_running, run, stop_orphans,
    };
    pub use crate::oracle::{Cancel, Control, OracleError, Outcome, Output};
    pub use crate::test_command::{
        Diagnosis, DiagnosisRunner, InputMode, MAX_TIMEOUT, MIN_TIMEOUT, Signature,
        dynamic_timeout, parse_timeout, remove_test_dirs,
    };
}

/// The answers to the `check` and `bisect` questions: is a result 1-minimal, and which input
/// of a sequence is the first bad one.
pub mod check {
    pub use crate::bisect::{Bisection, Status, first_bad};
    pub use crate::certify::{Certificate, Minimality, certify};
}

/// Run directories: where a reduction records its steps and verdicts, and how old runs are
/// listed, replayed and pruned.
pub mod runs {
    pub use crate::run_dir::{
        KEEP_RUNS, KEEP_RUNS_BYTES, KEEP_RUNS_FOR, MARKER, Recorded, RunDir, RunInfo, RunStatus,
        VerdictFile, default_runs_root, fresh_run_path, is_run_dir, list_runs, prune_runs,
        prune_runs_to_size, replay_steps, run_in_use, run_info,
    };
}
