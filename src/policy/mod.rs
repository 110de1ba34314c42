//! The policy shape of the seed reduce loop: what to try removing next, learned from verdicts.
//!
//! Main types: the [`Policy`] trait, [`DDMin`] and [`ProbDD`]. A policy proposes deltas (sets
//! of ids to remove) lazily; pulling the next delta from its iterator means the previous one
//! failed. After each round [`Policy::on_reduced`] hears whether anything was removed and says
//! whether to go on. Policies never run tests: the driver does that through the one
//! evaluation path.
//!
//! ```
//! use myhill::{policy::{DDMin, Policy}, text::IdSet};
//! let mut ddmin = DDMin;
//! let config = IdSet::range(0, 4);
//! let first: Vec<IdSet> = ddmin.propose(&config).take(2).collect();
//! assert_eq!(first[0].to_vec(), vec![2, 3]); // keep only {0, 1}
//! assert_eq!(first[1].to_vec(), vec![0, 1]); // keep only {2, 3}
//! ```
//!
//! Limits: `clone_box` must capture the whole learning state, because parallel speculation
//! restores it and replays the sequential history when an earlier candidate wins.

mod complement;
mod ddmin;
mod hdd;
mod perses;
mod probdd;
mod split;
mod tpdd;

pub use complement::ComplementDDMin;
pub use ddmin::DDMin;
pub use hdd::Hdd;
pub use perses::Perses;
pub use probdd::ProbDD;
pub use split::BinarySplit;
pub use tpdd::TPdd;

use crate::idset::IdSet;

/// A lazily proposed sequence of deltas.
pub type Proposals<'a> = Box<dyn Iterator<Item = IdSet> + 'a>;

/// Proposes removals and learns from their failures.
pub trait Policy {
    /// A short name for reports, such as `ddmin` or `probdd`.
    fn name(&self) -> String;

    /// Deltas to try against `config`, lazily. Pulling the next one means the last one failed.
    /// Every delta must be a non-empty subset of `config`.
    fn propose<'a>(&'a mut self, config: &'a IdSet) -> Proposals<'a>;

    /// Hears the outcome of a round: `Some(new config)` if a delta was accepted, `None` if
    /// every proposal failed. Returns whether to keep going; the default stops at the fixpoint.
    fn on_reduced(&mut self, reduced: Option<&IdSet>) -> bool {
        reduced.is_some()
    }

    /// A copy of the whole state, for rolling back speculative learning.
    fn clone_box(&self) -> Box<dyn Policy>;
}

impl Policy for Box<dyn Policy> {
    fn name(&self) -> String {
        (**self).name()
    }
    fn propose<'a>(&'a mut self, config: &'a IdSet) -> Proposals<'a> {
        (**self).propose(config)
    }
    fn on_reduced(&mut self, reduced: Option<&IdSet>) -> bool {
        (**self).on_reduced(reduced)
    }
    fn clone_box(&self) -> Box<dyn Policy> {
        (**self).clone_box()
    }
}

/// Makes a fresh policy; used where a policy is rebuilt per level or per pass.
pub type PolicyFactory = std::sync::Arc<dyn Fn() -> Box<dyn Policy> + Send + Sync>;
