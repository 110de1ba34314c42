//! The `myhill` binary: command-line parsing, messages and exit codes around the library.

mod cli;

use clap::Parser;

fn main() {
    let args = cli::Cli::parse();
    let code = cli::run(args);
    std::process::exit(code);
}
