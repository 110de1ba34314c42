//! The `myhill` binary: command-line parsing, messages and exit codes around the library.

mod cli;

fn main() {
    std::process::exit(cli::main());
}
