//! Every pass myhill runs, each a [`crate::passes::Pass`] that only proposes candidates.
//!
//! - [`TopChunks`]: deletes long runs of top-level forms, from halves down, on large inputs.
//! - [`DeadDeclarations`]: deletes top-level declarations whose names nobody mentions.
//! - [`RootForms`]: deletes the forms nobody can mention (operators), then what they kept alive.
//! - [`UnitPass`]: a policy over lines, tokens or bytes.
//! - [`Partition`]: binary splitting over lines, tokens or bytes, by partition when the run batches.
//! - [`TreePass`]: HDD, Perses or T-PDD over a tree inferred from the bytes.
//! - [`SqueezeWhitespace`]: one candidate with every whitespace run shortened.
//! - [`StripComments`]: one candidate with every comment deleted.
//! - [`SqueezeSpaces`]: one candidate with every space that keeps no two tokens apart deleted.
//! - [`SqueezeLines`]: one candidate with every line break that no directive or line comment
//!   needs deleted.
//! - [`ShortenIdentifiers`]: one candidate per identifier, renamed to the shortest free name.
//! - [`DfaPass`]: SAT-backed DFA induction, deleting loops of an inferred automaton.
//! - [`Hollow`]: empties bracket groups and string literals.
//! - [`Hoist`]: replaces a group by a group inside it, or by its contents.
//! - [`SiblingRuns`]: deletes runs of 2 to 8 elements of one sequence.
//! - [`ShortIntervals`]: deletes runs of 1 to 8 tokens anywhere, on small inputs.
//! - [`LengthAware`]: on binary input, deletes records and fixes every enclosing length.
//! - [`Integers`]: makes integer literals as small as the test allows.
//! - [`LowerBytes`]: lowers the bytes of a binary input toward zero.
//! - [`ShortenLiterals`]: shortens string literals from inside.
//! - [`Expressions`]: replaces `a OP b` by an operand, and names, calls and postfix chains by `0`.
//! - [`FilesDelete`], [`FilesHoist`], [`FilesBypass`], [`FilesEach`]: on a directory tree, whole
//!   files deleted, a file replaced by another, a reference that skips the file between, then
//!   each file reduced by a one-file schedule inside the tree.
//! - [`IndentBlocks`]: deletes an indented block, or replaces it by its dedented body (one-line
//!   blocks too).
//! - [`BuiltinTypes`]: replaces a type name the input does not declare by `int`, `unsigned`,
//!   `long` or `char` (with an `#include` line, when the builtin is not shorter).
//! - [`Constructs`]: on statement code, a control statement deleted or replaced by its body, a
//!   constructor's initializer list deleted.
//! - [`Gated`]: any of them, run only on inputs where it can pay ([`Needs`]).
//!
//! Hollow, Hoist, SiblingRuns, ShortIntervals, LowerBytes, ShortenLiterals, Expressions and
//! Constructs are sweeps (`patch.rs`'s `SweepPass`): they state their candidates as patches of
//! the input as the pass found it, most on the groups of the best's shared [`crate::tree::Nesting`],
//! and test them in one sweep; LengthAware sweeps too, over the records of the layout it
//! infers.
//!
//! The passes live in a folder per what they serve: `text/` any text (the splits, the tree and
//! the DFA take bytes too), `statements/` statement code, `indented/` indented code,
//! `directories/` directory trees, `binary/` binary input. They read the shape of an input from
//! one place: the lexer and its bracket pairing (`lex.rs`), the best's
//! [`crate::tree::Nesting`], and on inputs too large for it the forms of `tree/forms.rs`.

mod binary;
mod directories;
mod gate;
mod indented;
mod patch;
mod statements;
mod text;

pub use crate::cx::Cx;
pub use crate::dfa::{DfaOptions, Finish};
pub use crate::driver::{View, Witness};
pub use crate::schedule::{Checks, Pass, Schedule};
pub use crate::sweeps::SweepMode;
pub use binary::{LengthAware, LowerBytes};
pub use directories::{FilesBypass, FilesDelete, FilesEach, FilesHoist};
pub use gate::{Gated, Needs};
pub use indented::IndentBlocks;
pub use statements::{BuiltinTypes, Constructs, DeadDeclarations, RootForms, TopChunks};
pub use text::{
    DfaPass, Expressions, Hoist, Hollow, Integers, Partition, Renaming, ShortIntervals,
    ShortenIdentifiers, ShortenLiterals, SiblingRuns, SqueezeLines, SqueezeSpaces,
    SqueezeWhitespace, StripComments, TreePass, TreeStrategy, UnitPass, drop_spaces, join_lines,
    squeeze, strip_comments,
};
