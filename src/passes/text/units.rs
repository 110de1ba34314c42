//! Passes over a flat cut of the input: a [`Policy`] deleting units of one granularity.
//!
//! Main type: [`UnitPass`] (a granularity and a policy factory).
//!
//! ```
//! use myhill::FnOracle;
//! use myhill::eval::EvalOptions;
//! use myhill::passes::{Cx, Pass, UnitPass};
//! use myhill::policy::{DDMin, Policy};
//! use myhill::text::Granularity;
//! use std::sync::Arc;
//! let oracle = FnOracle::new(|b: &[u8]| b.ends_with(b"z\n"));
//! let mut cx = Cx::new(b"x\ny\nz\n".to_vec(), &oracle, EvalOptions::default());
//! let mut pass = UnitPass::new(Granularity::Lines, Arc::new(|| Box::new(DDMin) as Box<dyn Policy>));
//! pass.run(&mut cx).unwrap();
//! assert_eq!(cx.best(), b"z\n");
//! assert_eq!(pass.name(), "ddmin/lines");
//! ```
//!
//! Binary splitting that batches when the run does is [`crate::passes::Partition`], a pass of its own.
//!
//! Limits: the cut is taken afresh each time the pass runs; what the policy learned is dropped.

use crate::cx::Cx;
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

    fn run(&mut self, cx: &mut Cx) -> Result<(), Stop> {
        let units = Units::cut_shared(cx.best_shared(), self.granularity);
        let mut policy = (self.make)();
        cx.run_policy(&units, &mut policy).map(drop)
    }
}
