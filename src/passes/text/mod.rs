//! The passes for any input read as text: splits, tree and automaton strategies, whitespace,
//! comments, names, literals and the sweeps over the groups of the shared nesting (the splits,
//! the tree and the automaton take bytes too).

mod comments;
mod dfa;
mod expressions;
mod hoist;
mod hollow;
mod integers;
mod intervals;
mod literals;
mod partition;
pub(crate) mod rename;
pub(crate) mod siblings;
mod spaces;
mod squeeze;
mod tree;
mod units;

pub use comments::{StripComments, strip_comments};
pub use dfa::DfaPass;
pub use expressions::Expressions;
pub use hoist::Hoist;
pub use hollow::Hollow;
pub use integers::Integers;
pub use intervals::ShortIntervals;
pub use literals::ShortenLiterals;
pub use partition::Partition;
pub use rename::{Renaming, ShortenIdentifiers};
pub use siblings::SiblingRuns;
pub use spaces::{SqueezeLines, SqueezeSpaces, drop_spaces, join_lines};
pub use squeeze::{SqueezeWhitespace, squeeze};
pub use tree::{TreePass, TreeStrategy};
pub use units::UnitPass;
