//! Reproduces the seed pages' tables in-process: one line per row,
//! `DEMO STRATEGY calls=N result=R`.
//!
//!     cargo run --release --example seed_tables

#[path = "../tests/support/mod.rs"]
mod support;

fn main() {
    for row in support::demos::seed_rows() {
        println!("{row}");
    }
}
