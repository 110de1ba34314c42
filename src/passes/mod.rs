//! Every pass myhill runs, each a [`crate::Pass`] that only proposes candidates.
//!
//! - [`UnitPass`]: a policy over lines, tokens or bytes.
//! - [`TreePass`]: HDD, Perses or T-PDD over a tree inferred from the bytes.
//! - [`SqueezeWhitespace`]: one candidate with every whitespace run shortened.
//! - [`ShortenIdentifiers`]: one candidate per identifier, renamed to the shortest free name.
//! - [`DfaPass`]: SAT-backed DFA induction, deleting loops of an inferred automaton.
//! - [`Hollow`]: empties bracket groups and string literals.
//! - [`Hoist`]: replaces a group by a group inside it, or by its contents.
//! - [`SiblingRuns`]: deletes runs of 2 to 8 elements of one sequence.
//! - [`ShortIntervals`]: deletes runs of 1 to 8 tokens anywhere, on small inputs.
//! - [`Gated`]: any of them, run only on inputs where it can pay ([`Needs`]).
//!
//! The last four state their candidates as patches of the input as the pass found it and test
//! them in one sweep (`patch.rs`), on the bracket structure of `structure.rs`.

mod dfa;
mod gate;
mod hoist;
mod hollow;
mod intervals;
mod patch;
mod rename;
mod siblings;
mod squeeze;
mod structure;
mod tree;
mod units;

pub use dfa::DfaPass;
pub use gate::{Gated, Needs, is_text};
pub use hoist::Hoist;
pub use hollow::Hollow;
pub use intervals::ShortIntervals;
pub use rename::{Round, ShortenIdentifiers};
pub use siblings::SiblingRuns;
pub use squeeze::{SqueezeWhitespace, squeeze};
pub use tree::{TreePass, TreeStrategy};
pub use units::UnitPass;
