//! Passes over a flat cut of the input: a [`Policy`] deleting units of one granularity.
//!
//! Main types: [`UnitPass`] (a granularity and a policy factory) and [`BytesWhenWorthIt`] (the
//! byte pass of the default schedule, which runs only where bytes inside tokens matter).
//!
//! ```
//! use myhill::{DDMin, Driver, EvalOptions, FnOracle, Granularity, Pass, Policy, UnitPass};
//! use std::sync::Arc;
//! let oracle = FnOracle::new(|b: &[u8]| b.ends_with(b"z\n"));
//! let mut driver = Driver::new(b"x\ny\nz\n".to_vec(), &oracle, EvalOptions::default());
//! let mut pass = UnitPass::new(Granularity::Lines, Arc::new(|| Box::new(DDMin) as Box<dyn Policy>));
//! pass.run(&mut driver).unwrap();
//! assert_eq!(driver.best(), b"z\n");
//! assert_eq!(pass.name(), "ddmin/lines");
//! ```
//!
//! Limits: the cut is taken afresh each time the pass runs; what the policy learned is dropped.

use crate::driver::Driver;
use crate::policy::PolicyFactory;
use crate::report::Stop;
use crate::schedule::Pass;
use crate::units::{Granularity, Units};

/// A policy over the current best cut at one granularity.
pub struct UnitPass {
    granularity: Granularity,
    policy_name: String,
    make: PolicyFactory,
}

impl UnitPass {
    /// The pass running `make()`'s policy over units of `granularity`.
    pub fn new(granularity: Granularity, make: PolicyFactory) -> UnitPass {
        let policy_name = make().name();
        UnitPass {
            granularity,
            policy_name,
            make,
        }
    }
}

impl Pass for UnitPass {
    fn name(&self) -> String {
        format!("{}/{}", self.policy_name, self.granularity)
    }

    fn run(&mut self, driver: &mut Driver) -> Result<(), Stop> {
        let units = Units::cut_shared(driver.best_shared(), self.granularity);
        let mut policy = (self.make)();
        driver.run_policy(&units, &mut policy).map(drop)
    }
}

/// The byte pass of the default schedule, run only where bytes inside tokens matter: on
/// binary inputs (not UTF-8, or holding NUL) and on text of at most 256 bytes. On larger text
/// the token pass has already tried every token, and deleting bytes inside identifiers and
/// numbers almost never keeps code interesting, yet costs about a test per byte.
pub struct BytesWhenWorthIt(pub UnitPass);

impl BytesWhenWorthIt {
    /// Whether bytes are worth trying on `input`.
    pub fn worth_it(input: &[u8]) -> bool {
        input.len() <= 256 || input.contains(&0) || std::str::from_utf8(input).is_err()
    }
}

impl Pass for BytesWhenWorthIt {
    fn name(&self) -> String {
        self.0.name()
    }

    fn run(&mut self, driver: &mut Driver) -> Result<(), Stop> {
        if Self::worth_it(driver.best()) {
            self.0.run(driver)
        } else {
            Ok(())
        }
    }
}
