//! The conformance demos of the seed pages, shared by the tests and `examples/seed_tables.rs`:
//! small in-process problems whose oracle-call counts are fixed targets. They use only the
//! public API, and are not part of it.

// Each test crate uses some of the helpers.
#![allow(dead_code)]

pub mod demos;
pub mod seeds;
