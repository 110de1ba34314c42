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
//! Layers, top down (a lower one never imports a higher one; `tests/layers.rs` checks it):
//! - [`Reduction`]: one run from the first check to the confirmed result; [`Strategy`] names
//!   schedules; [`certify`] and [`first_bad`] answer the `check` and `bisect` questions.
//! - Passes ([`UnitPass`], [`TreePass`], [`DfaPass`], ...) propose candidates through a [`Cx`] to its [`Driver`],
//!   the only place a candidate is accepted. Flat passes pair [`Units`] with a [`Policy`]
//!   ([`DDMin`], [`ProbDD`], ...); tree passes pair a [`Tree`] inferred by [`infer`] with one.
//! - The [`Evaluator`] is the one evaluation path: content cache, worker pool, [`Oracle`].
//! - [`TestCommand`] runs the user's test through [`run`], the one place a process starts.
//! - At the bottom: [`IdSet`], [`lex`] and [`Units`].
//!
//! The seeds' bare reduce loop is [`Cx::run_policy`]:
//!
//! ```
//! use myhill::{Cx, DDMin, EvalOptions, FnOracle, Granularity, Policy, Units};
//! // Interesting iff the lines "b" and "d" survive, in order.
//! let oracle = FnOracle::new(|c: &[u8]| {
//!     let lines: Vec<&[u8]> = c.split(|&b| b == b'\n').collect();
//!     let b = lines.iter().position(|l| *l == b"b");
//!     let d = lines.iter().position(|l| *l == b"d");
//!     matches!((b, d), (Some(b), Some(d)) if b < d)
//! });
//! let mut driver = Cx::new(b"a\nb\nc\nd\ne\n".to_vec(), &oracle, EvalOptions::default());
//! let units = Units::cut(driver.best(), Granularity::Lines);
//! driver.run_policy(&units, &mut (Box::new(DDMin) as Box<dyn Policy>)).unwrap();
//! assert_eq!(driver.best(), b"b\nd\n");
//! ```

#![warn(missing_docs)]
// A function over 100 lines is split into named steps (clippy counts its code lines).
#![warn(clippy::too_many_lines)]

mod archive;
mod bisect;
mod capture;
mod certify;
mod command;
mod cx;
mod dfa;
mod driver;
mod error;
mod eval;
mod idset;
mod kind;
mod ledger;
mod lex;
mod oracle;
mod passes;
mod policy;
mod reduction;
mod report;
mod rounds;
mod run_dir;
mod schedule;
mod strategy;
mod sweeps;
mod test_command;
mod tree;
mod units;

pub use archive::{Archive, ArchiveError, Entry, EntryKind, Splice};
pub use bisect::{Bisection, Status, first_bad};
pub use certify::{Certificate, Minimality, certify};
pub use command::{
    DEFAULT_GRACE, HURRIED_GRACE, MARK_VARIABLE, Process, ProcessEnd, Run, RunError, kill_running,
    run, stop_orphans,
};
pub use cx::Cx;
pub use dfa::{DfaOptions, Finish};
pub use driver::{Driver, View, Witness, shortlex_less};
pub use error::Error;
pub use eval::{EvalOptions, Evaluator, VerdictStore, content_key};
pub use idset::{IdSet, RankIndex};
pub use kind::{Decided, DecidedBy, Kind, is_text};
pub use lex::{Class, Lexeme, lex};
pub use oracle::{Cancel, Control, FnOracle, Oracle, OracleError, Outcome, Output, Verdict};
pub use passes::{
    BuiltinTypes, Constructs, DeadDeclarations, DfaPass, Expressions, FilesBypass, FilesDelete,
    FilesEach, FilesHoist, Gated, Hoist, Hollow, IndentBlocks, Integers, LengthAware, LowerBytes,
    Needs, Partition, Renaming, RootForms, ShortIntervals, ShortenIdentifiers, ShortenLiterals,
    SiblingRuns, SqueezeLines, SqueezeSpaces, SqueezeWhitespace, StripComments, TopChunks,
    TreePass, TreeStrategy, UnitPass, drop_spaces, join_lines, squeeze, strip_comments,
};
pub use policy::{
    BinarySplit, ComplementDDMin, DDMin, Hdd, Perses, Policy, PolicyFactory, ProbDD, Proposals,
    TPdd,
};
pub use reduction::{Finished, ReduceOptions, Reduction};
pub use report::{Counter, EvalStats, Event, Figure, Fold, PassStats, Report, Stop};
pub use run_dir::{
    KEEP_RUNS, KEEP_RUNS_BYTES, KEEP_RUNS_FOR, LOG_LIMIT, MARKER, Recorded, RunDir, RunInfo,
    RunStatus, VerdictFile, default_runs_root, fresh_run_path, is_run_dir, list_runs, prune_runs,
    prune_runs_to_size, replay_steps, run_in_use, run_info,
};
pub use schedule::{Pass, Schedule};
pub use strategy::{
    STRATEGIES, Strategy, StrategyInfo, directory_schedule, pass_named, passes, schedule_of,
};
pub use sweeps::SweepMode;
pub use test_command::{
    Diagnosis, DiagnosisRunner, InputMode, MAX_TIMEOUT, MIN_TIMEOUT, Signature, TestCommand,
    TestSpec, dynamic_timeout, parse_timeout, remove_test_dirs,
};
pub use tree::{
    Delim, Group, Inferred, Liveness, MalformedTree, Nesting, NodeId, NodeKind, Tree, TreeBuilder,
    infer,
};
pub use units::{Granularity, ParseGranularityError, Units};
