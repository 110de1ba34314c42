//! myhill: a test-case reducer. It shrinks an input that makes a program misbehave to a small
//! one that still does, running the user's test as few times as it can.
//!
//! The library holds all the work; the `myhill` binary is glue around it. Layers, top down:
//! - [`Driver`] holds the best input, accepts candidates and runs a [`Schedule`] of passes.
//! - Passes propose candidates: a [`UnitPass`] pairs a [`Units`] cut with a [`Policy`]
//!   ([`DDMin`], [`ProbDD`], ...).
//! - The [`Evaluator`] is the one evaluation path: content cache, worker pool, [`Oracle`].
//!
//! ```
//! use myhill::{DDMin, Driver, EvalOptions, FnOracle, Granularity, Policy, Units};
//! // Interesting iff the lines "b" and "d" survive, in order.
//! let oracle = FnOracle::new(|c: &[u8]| {
//!     let lines: Vec<&[u8]> = c.split(|&b| b == b'\n').collect();
//!     let b = lines.iter().position(|l| *l == b"b");
//!     let d = lines.iter().position(|l| *l == b"d");
//!     matches!((b, d), (Some(b), Some(d)) if b < d)
//! });
//! let mut driver = Driver::new(b"a\nb\nc\nd\ne\n".to_vec(), &oracle, EvalOptions::default());
//! let units = Units::cut(driver.best(), Granularity::Lines);
//! driver.run_policy(&units, &mut (Box::new(DDMin) as Box<dyn Policy>)).unwrap();
//! assert_eq!(driver.best(), b"b\nd\n");
//! ```

pub mod bisect;
pub mod certify;
pub mod command;
pub mod demos;
pub mod dfa;
pub mod driver;
pub mod eval;
pub mod idset;
pub mod lex;
pub mod oracle;
pub mod policy;
pub mod rename;
pub mod squeeze;
pub mod strategy;
pub mod tree;
pub mod units;

pub use dfa::{DfaOptions, DfaPass, dfa_schedule};
pub use driver::{Driver, Event, Pass, PassStats, Report, Schedule, UnitPass};
pub use eval::{EvalOptions, EvalStats, Evaluator, Stop};
pub use idset::IdSet;
pub use lex::{Class, Lexeme, lex};
pub use oracle::{Cancel, FnOracle, Oracle, OracleError, Outcome, Verdict};
pub use policy::{BinarySplit, ComplementDDMin, DDMin, Policy, PolicyFactory, ProbDD};
pub use tree::{Tree, TreePass, TreeStrategy};
pub use units::{Granularity, Units};
