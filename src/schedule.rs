//! What a reduction runs: passes, and schedules of them.
//!
//! Main types: the [`Pass`] trait and [`Schedule`]. A pass reads the driver's best and tries to
//! shrink it by handing candidates to the [`Driver`]; it never runs a process and never changes
//! the best itself. A schedule is a list of passes, run in order and optionally repeated until a
//! whole round removes nothing; [`crate::Reduction::run`] runs it, re-running the best between
//! passes.
//!
//! ```
//! use myhill::{Driver, Pass, Schedule, Stop};
//! /// Proposes dropping the last byte, once.
//! struct DropLast;
//! impl Pass for DropLast {
//!     fn name(&self) -> String { "drop-last".into() }
//!     fn run(&mut self, driver: &mut Driver) -> Result<(), Stop> {
//!         let best = driver.best();
//!         let mut candidate = Some((best[..best.len().saturating_sub(1)].to_vec(), ()));
//!         driver.try_candidates(&mut || candidate.take()).map(drop)
//!     }
//! }
//! let schedule = Schedule { passes: vec![Box::new(DropLast)], to_fixpoint: true };
//! assert_eq!(schedule.passes[0].name(), "drop-last");
//! ```
//!
//! Limits: a pass that accepts nothing in a round is still run in the next one.

use crate::driver::Driver;
use crate::report::Stop;

/// One step of a schedule: reads the driver's best and tries to shrink it.
pub trait Pass {
    /// A short name for reports, such as `split/lines`.
    fn name(&self) -> String;
    /// Proposes candidates through `driver` until it has nothing more to try.
    fn run(&mut self, driver: &mut Driver) -> Result<(), Stop>;
    /// The first candidates `run` would test on `best` with batches of `batch`, if they can be
    /// told without testing anything (default: none). With many jobs, a reduction tests them
    /// in the slots the pass before leaves idle, so that a pass which finds nothing costs no
    /// wave of its own; a wrong preview only wastes those slots.
    fn preview(&self, _best: &[u8], _batch: usize) -> Vec<Vec<u8>> {
        Vec::new()
    }
}

/// Passes run in order, optionally repeated until a whole round removes nothing.
pub struct Schedule {
    /// The passes, in order.
    pub passes: Vec<Box<dyn Pass>>,
    /// Repeat rounds until one removes nothing.
    pub to_fixpoint: bool,
}

impl Schedule {
    /// The names of its passes, in order.
    pub fn names(&self) -> Vec<String> {
        self.passes.iter().map(|p| p.name()).collect()
    }

    /// Drops the passes called `name`; whether there was one.
    pub fn skip(&mut self, name: &str) -> bool {
        let before = self.passes.len();
        self.passes.retain(|p| p.name() != name);
        self.passes.len() < before
    }
}
