//! Reproduces the seed pages' tables in-process: one line per row,
//! `DEMO STRATEGY calls=N result=R`.
//!
//!     cargo run --release --example seed_tables

fn main() {
    for row in myhill::demos::seed_rows() {
        println!("{row}");
    }
}
