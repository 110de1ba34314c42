//! The passes for binary input: length-aware records, bytes lowered toward zero.

mod lower;
mod records;

pub use lower::LowerBytes;
pub use records::LengthAware;
