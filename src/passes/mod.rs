//! Every pass myhill runs, each a [`crate::Pass`] that only proposes candidates.
//!
//! - [`UnitPass`], [`BytesWhenWorthIt`]: a policy over lines, tokens or bytes.
//! - [`TreePass`]: HDD, Perses or T-PDD over a tree inferred from the bytes.
//! - [`SqueezeWhitespace`]: one candidate with every whitespace run shortened.
//! - [`ShortenIdentifiers`]: one candidate per identifier, renamed to the shortest free name.
//! - [`DfaPass`]: SAT-backed DFA induction, deleting loops of an inferred automaton.

mod dfa;
mod rename;
mod squeeze;
mod tree;
mod units;

pub use dfa::DfaPass;
pub use rename::{Round, ShortenIdentifiers};
pub use squeeze::{SqueezeWhitespace, squeeze};
pub use tree::{TreePass, TreeStrategy};
pub use units::{BytesWhenWorthIt, UnitPass};
