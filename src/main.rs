//! The `myhill` binary: command-line parsing, messages and exit codes around the library.
#![warn(clippy::too_many_lines)]

mod cli;

fn main() {
    let code = cli::main();
    // Tests' daemons were stopped after each test; this catches any that hid their mark.
    myhill::process::stop_orphans(myhill::process::DEFAULT_GRACE);
    std::process::exit(code);
}
