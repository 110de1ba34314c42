//! Command-line glue: clap definitions, the subcommands, and the mapping of failures to exit codes.
//!
//! Exit codes are in `exit.rs`, in one place. Nothing here reduces: the library's
//! [`myhill::Reduction`] does, and the subcommands parse, read and write files, and render.

mod bisect;
mod check;
mod compare;
mod exit;
mod files;
mod hunk;
mod input_lock;
mod out;
mod plan;
mod plot;
mod reduce;
mod runs;
mod session;
mod show;
mod stats;
mod terminal;
mod tree_io;
mod ui;

use clap::builder::TypedValueParser as _;
use clap::{Args, CommandFactory, FromArgMatches, Parser, Subcommand};
use exit::Fail;
use myhill::{process::InputMode, text::Granularity};
use std::path::PathBuf;

#[derive(Parser, Debug)]
#[command(
    name = "myhill",
    version,
    args_override_self = true,
    about = "Shrink a file that makes a program misbehave to a small file that still does.",
    long_about = "Shrink a file that makes a program misbehave to a small file that still does.\n\n\
        You give myhill the file and a test: a command that exits 0 while the file is still \
        \"interesting\" (still shows the bug). myhill tries smaller and smaller versions, keeps \
        the smallest one the test accepts, and never loses your work: the original is kept as \
        FILE.orig and the best result so far is always on disk."
)]
pub struct Cli {
    /// List every pass, what it does, and the passes of each strategy, then exit.
    #[arg(long)]
    pub list_passes: bool,

    #[command(subcommand)]
    pub command: Option<Command>,
}

#[derive(Subcommand, Debug)]
pub enum Command {
    /// Reduce INPUT while TEST keeps saying it is interesting.
    #[command(
        after_help = "The test contract: the candidate is written under INPUT's own file name in a fresh \
        temporary directory, which is the test's working directory; its path is appended to TEST's \
        arguments and it is also fed on stdin. Exit status 0 means interesting (unless signature \
        options are given: then all of them must hold).\n\n\
        A directory as INPUT: each candidate is a whole copy of the tree, made under the \
        directory's own name in a fresh temporary directory; TEST runs inside that copy (it is \
        the working directory) and gets its path as the last argument; nothing is fed on stdin \
        (--input-mode does not apply). Links are never followed; files the test creates never \
        reach the result.\n\n\
        Exit codes: 0 done, 2 usage or setup error, 3 the original is not interesting, 4 the test \
        is flaky, 5 the result has at most one byte (see --allow-trivial), 130 interrupted (the \
        best so far is on disk).\n\n\
        Example:\n  myhill reduce ./still-crashes.sh crash.c\n  \
        myhill reduce --expect-exit 139 ./prog input.bin   (139 = 128 + SIGSEGV)",
        // With --resume, TEST and INPUT come from the run directory; the hidden defaults are
        // never used otherwise. TEST is changed first: the manual page lists the positionals
        // in the order they were last changed, and must say TEST INPUT as the usage does.
        mut_arg("test", |a| a.index(1).required(false).required_unless_present("resume").conflicts_with("resume").default_value("").hide_default_value(true)),
        mut_arg("input", |a| a.help("The file or directory to reduce: in place (the original is kept as INPUT.orig) unless -o is given. A directory is reduced as a whole tree, and its test contract differs (see below)")
            .index(2).required(false).required_unless_present("resume").conflicts_with("resume").default_value(".").hide_default_value(true))
    )]
    Reduce(ReduceArgs),
    /// Find the first bad item in an ordered list of versions (or a git range).
    #[command(
        after_help = "TEST is run with the item appended as its last argument, in the current directory. \
        Exit status 0 means good, 125 means the item cannot be tested (it is skipped, as with \
        git bisect run), anything else means bad; or the signature options (--expect-exit, \
        --stdout-regex, --stderr-regex) define bad.\n\n\
        Exit codes: 0 found (or a range of candidates when skips hide the change), 2 usage or \
        setup error, 3 the first item is not good or the last not bad, 4 the test is flaky.\n\n\
        Examples:\n  myhill bisect versions.txt ./still-broken.sh\n  \
        myhill bisect --git v1.0 HEAD './build-and-test.sh'",
        mut_arg("expect_exit", |a| a
            .help("Only a run that exits with this status counts as bad: 0 to 255, a signal counting as 128 + its number")
            .help_heading("What counts as bad")),
        mut_arg("stdout_regex", |a| a
            .help("Only a run whose stdout matches this regular expression counts as bad")
            .help_heading("What counts as bad")),
        mut_arg("stderr_regex", |a| a
            .help("Only a run whose stderr matches this regular expression counts as bad")
            .help_heading("What counts as bad"))
    )]
    Bisect(BisectArgs),
    /// Certify that FILE is 1-minimal (no unit can be deleted) or interval-minimal.
    #[command(
        after_help = "Exit codes: 0 minimal, 1 not minimal (the deletion is named and, with -o, \
        written), 2 could not check (bad input, a test that cannot run, the original not interesting, \
        a flaky test, or interrupted).",
        mut_arg("input", |a| a.help("The file to certify").value_name("FILE"))
    )]
    Check(CheckArgs),
    /// Run several strategies from the same input and compare tests, sizes and minimality.
    #[command(mut_arg("input", |a| a.help("The file every strategy starts from (it is never changed)")))]
    Compare(CompareArgs),
    /// List or remove the kept run directories.
    #[command(
        after_help = "Each run of `myhill reduce` keeps a run directory (the original, the best, \
        every step, a log of every test, the verdict cache) so it can be resumed. Unless --run-dir \
        is given, they go under $XDG_STATE_HOME/myhill/runs (or ~/.local/state/myhill/runs); a new \
        run removes the ones there that are not among the newest 20 and have not changed for 14 \
        days.\n\n\
        Examples:\n  myhill runs list\n  myhill runs remove 20261203-071234-in.txt-1a2b\n  \
        myhill runs remove --finished"
    )]
    Runs {
        #[command(subcommand)]
        action: RunsAction,
    },
    /// Print a shell completion script: bash, zsh, fish, elvish or powershell.
    #[command(
        after_help = "Examples:\n  myhill completions bash > ~/.local/share/bash-completion/completions/myhill\n  \
        myhill completions zsh > ~/.zfunc/_myhill"
    )]
    Completions {
        /// The shell.
        shell: clap_complete::Shell,
    },
    /// Print a manual page (roff), generated from these definitions: myhill's, or a
    /// subcommand's (myhill-reduce, ...).
    #[command(
        after_help = "Examples:\n  myhill man > myhill.1 && man ./myhill.1\n  \
        myhill man reduce > myhill-reduce.1"
    )]
    Man {
        /// The subcommand whose page to print.
        #[arg(value_parser = ["reduce", "bisect", "check", "compare", "runs", "completions"])]
        subcommand: Option<String>,
    },
}

/// What `myhill runs` does.
#[derive(Subcommand, Debug, Clone)]
pub enum RunsAction {
    /// List the run directories, newest first: when each began, how it stands, its input and
    /// output, the best's size, and the space it takes.
    List,
    /// Remove run directories: named ones (a name from `myhill runs list`, or a path), or
    /// with --finished every finished one. A run in use is never removed.
    Remove {
        /// The runs to remove.
        #[arg(value_name = "RUN", required_unless_present = "finished")]
        runs: Vec<PathBuf>,
        /// Remove every run that reduced to the end.
        #[arg(long)]
        finished: bool,
    },
    /// Watch a run in the full-screen view, from its directory: a run in progress is followed
    /// live (read-only: from any terminal, while it runs elsewhere), a finished or killed one
    /// replayed. `h` opens the history of accepted steps, each a diff against the one
    /// before. Piped, or with --history, prints that history as unified diff hunks.
    Show {
        /// The run (a name from `myhill runs list`, or a path).
        #[arg(value_name = "RUN")]
        run: PathBuf,
        /// Print the history of steps instead of showing the view.
        #[arg(long)]
        history: bool,
    },
    /// Draw a run's size curve as an SVG picture: bytes left against time and against tests
    /// run, each drop coloured by the pass that made it, on a log axis when the sizes span
    /// more than a factor of ten.
    Plot {
        /// The run (a name from `myhill runs list`, or a path).
        #[arg(value_name = "RUN")]
        run: PathBuf,
        /// Where the SVG goes.
        #[arg(short, long, value_name = "FILE")]
        output: PathBuf,
    },
    /// Write one step of a run to a new file: step 0 is the original, step N the N-th
    /// accepted step (`steps.jsonl`), the last one the best. A directory input's steps are
    /// written as directories.
    #[command(
        after_help = "Examples:\n  myhill runs restore 20261202-130101-in.c --step 0 -o in.orig.c\n  \
        myhill runs restore ./run --step 12 -o step12.c"
    )]
    Restore {
        /// The run: a name from `myhill runs list`, or a path.
        #[arg(value_name = "RUN")]
        run: PathBuf,
        /// The step to write (0: the original).
        #[arg(long, value_name = "N")]
        step: usize,
        /// Where to write it: a new path (an existing file is never replaced).
        #[arg(short, long, value_name = "FILE")]
        output: PathBuf,
    },
}

#[derive(Args, Debug, Clone)]
pub struct CheckArgs {
    #[command(flatten)]
    pub t: TestArgs,

    /// The units a deletion removes: bytes, lines or tokens.
    #[arg(long, default_value = "bytes", value_name = "UNITS", value_parser = units(), hide_possible_values = true)]
    pub units: Granularity,

    /// Certify interval-minimality: no contiguous run of units can be deleted.
    #[arg(long)]
    pub interval: bool,

    /// When a deletion keeps FILE interesting, write the smaller file here.
    #[arg(short, long, value_name = "PATH")]
    pub output: Option<PathBuf>,
}

#[derive(Args, Debug, Clone)]
pub struct CompareArgs {
    #[command(flatten)]
    pub t: TestArgs,

    /// Strategies to compare, comma-separated (default: every strategy).
    #[arg(long, value_name = "A,B,...")]
    pub strategies: Option<String>,

    /// Print the table as JSON.
    #[arg(long)]
    pub json: bool,

    /// Write an SVG plot of bytes left against tests run, one line per strategy.
    #[arg(long, value_name = "FILE.svg")]
    pub plot: Option<PathBuf>,

    /// The units of the minimality checks of each result.
    #[arg(long, default_value = "tokens", value_name = "UNITS", value_parser = units(), hide_possible_values = true)]
    pub check_units: Granularity,

    /// Check 1-minimality only for results of at most this many units.
    #[arg(long, default_value_t = 300, value_name = "N")]
    pub check_limit: usize,

    /// Check interval-minimality only for results of at most this many units.
    #[arg(long, default_value_t = 40, value_name = "N")]
    pub interval_limit: usize,

    /// Give each strategy at most this many tests in all (the first check included).
    #[arg(long, value_name = "N")]
    pub max_tests: Option<u64>,
}

#[derive(Args, Debug, Clone)]
pub struct BisectArgs {
    /// ITEMS TEST, or just TEST with --git: ITEMS is a file listing versions oldest first, one
    /// per line; TEST is a command line run with the item appended.
    #[arg(required = true, num_args = 1..=2, value_names = ["ITEMS", "TEST"])]
    pub args: Vec<String>,

    /// Bisect the git history from GOOD (a good revision) to BAD (a bad one) instead of ITEMS.
    #[arg(long, num_args = 2, value_names = ["GOOD", "BAD"])]
    pub git: Option<Vec<String>>,

    #[command(flatten)]
    pub signature: SignatureArgs,

    /// Run the test this many times per item; differing verdicts mean the test is flaky.
    #[arg(long, default_value_t = 1, value_name = "N")]
    pub repeat: u32,

    /// With --repeat, take the majority verdict of a flaky item instead of stopping.
    #[arg(long)]
    pub allow_flaky: bool,

    /// Seconds before a run is killed; a killed run counts as untestable (default 300).
    #[arg(long, value_name = "SECS")]
    pub timeout: Option<f64>,

    /// Print only the result.
    #[arg(short, long)]
    pub quiet: bool,
}

/// The failure's signature: when given, all must hold (and exit status 0 is not required).
#[derive(Args, Debug, Clone)]
pub struct SignatureArgs {
    /// Only a run that exits with this status counts as interesting: 0 to 255, a signal
    /// counting as 128 + its number.
    #[arg(
        help_heading = "What counts as interesting",
        long,
        value_name = "CODE",
        allow_negative_numbers = true,
        value_parser = clap::value_parser!(i32).range(0..=255)
    )]
    pub expect_exit: Option<i32>,

    /// Only a run whose stdout matches this regular expression counts as interesting.
    #[arg(help_heading = "What counts as interesting", long, value_name = "RE")]
    pub stdout_regex: Option<String>,

    /// Only a run whose stderr matches this regular expression counts as interesting.
    #[arg(help_heading = "What counts as interesting", long, value_name = "RE")]
    pub stderr_regex: Option<String>,
}

impl SignatureArgs {
    /// The signature, with its regular expressions compiled.
    pub fn compile(&self, same_output: bool) -> Result<myhill::process::Signature, Fail> {
        Ok(myhill::process::Signature::new(
            self.expect_exit,
            self.stdout_regex.as_deref(),
            self.stderr_regex.as_deref(),
            same_output,
        )?)
    }
}

/// The test and how to judge it: shared by reduce, check and compare.
#[derive(Args, Debug, Clone)]
pub struct TestArgs {
    /// The interestingness test, a command line split like a shell does (no shell is run);
    /// the candidate's path is appended. Relative paths are taken from the current directory.
    pub test: String,

    /// The input file.
    pub input: PathBuf,

    /// Tests to run at once (default: the number of cores). Never changes the result.
    #[arg(help_heading = "Running the test", short, long, value_name = "N", value_parser = clap::value_parser!(u16).range(1..=1024))]
    pub jobs: Option<u16>,

    /// Seconds before a test is killed and counted as timed out (default: about 10x the
    /// original's run time, between 1 and 300, times the jobs per core when -j is above the
    /// cores and no --launcher is given).
    #[arg(help_heading = "Running the test", long, value_name = "SECS")]
    pub timeout: Option<f64>,

    /// Count a timed-out test as interesting (for reducing hangs).
    #[arg(help_heading = "Running the test", long)]
    pub timeout_is_interesting: bool,

    /// How the candidate reaches the test: arg, stdin, file (only in the working directory)
    /// or all.
    #[arg(
        help_heading = "Running the test",
        long,
        default_value = "all",
        value_name = "MODE",
        value_parser = clap::builder::PossibleValuesParser::new(["arg", "stdin", "file", "all"])
            .try_map(|mode| mode.parse::<InputMode>()),
        hide_possible_values = true
    )]
    pub input_mode: InputMode,

    #[command(flatten)]
    pub signature: SignatureArgs,

    /// Interesting only if exit status, stdout and stderr equal the original run's.
    #[arg(help_heading = "What counts as interesting", long)]
    pub same_output: bool,

    /// Let tests use your TMPDIR instead of a private one per test (which is removed with
    /// the test, so a test cannot cache anything there from one run to the next).
    #[arg(help_heading = "Running the test", long)]
    pub shared_tmpdir: bool,

    /// Go on when the test gives different verdicts on the original; every accepted
    /// reduction and the final result are then re-confirmed.
    #[arg(help_heading = "Running the test", long)]
    pub allow_flaky: bool,

    /// How many times the original is run first (to detect a flaky test).
    #[arg(help_heading = "Running the test", long, default_value_t = 2, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=100))]
    pub first_runs: u32,

    /// Print nothing but errors and warnings.
    #[arg(help_heading = "Output", short, long)]
    pub quiet: bool,

    /// Run every test through this command, e.g. 'srun --quiet --ntasks=1 --' on a Slurm
    /// cluster: its words come before the test's. A cancelled test's launcher gets SIGTERM
    /// (srun then cancels its job step), and the timeout counts the launcher's start-up.
    #[arg(help_heading = "Running the test", long, value_name = "CMD")]
    pub launcher: Option<String>,

    /// Make the tests' directories under DIR (default: $TMPDIR, else /dev/shm); with
    /// --launcher, a directory every node can see.
    #[arg(help_heading = "Running the test", long, value_name = "DIR")]
    pub work_dir: Option<PathBuf>,
}

#[derive(Args, Debug, Clone)]
pub struct ReduceArgs {
    #[command(flatten)]
    pub t: TestArgs,

    /// Write the result here instead of reducing INPUT in place (then no INPUT.orig is made).
    #[arg(help_heading = "Output", short, long, value_name = "PATH")]
    pub output: Option<PathBuf>,

    /// What the input is (c, c++, python, json, records, text, binary...), for the whole run,
    /// instead of what its file name's extension, then its content, say. A directory's files
    /// each keep their own kind.
    #[arg(help_heading = "Choosing passes", long, alias = "language", value_name = "KIND", value_parser = kind_of, hide_possible_values = true)]
    pub kind: Option<myhill::text::Kind>,

    /// The reduction strategy (see the list below: `myhill reduce --help`).
    #[arg(help_heading = "Choosing passes", long, default_value = "default", value_name = "NAME", long_help = strategy_help(), value_parser = Offered(strategy_names), hide_possible_values = true)]
    pub strategy: String,

    /// The units the strategy deletes: bytes, lines or tokens (default: lines, then tokens,
    /// then bytes).
    #[arg(help_heading = "Choosing passes", long, value_name = "UNITS", value_parser = units(), hide_possible_values = true)]
    pub units: Option<Granularity>,

    /// Run exactly these passes, in this order, to a fixpoint, instead of a strategy (names
    /// from `myhill --list-passes`, comma-separated).
    #[arg(help_heading = "Choosing passes", long, value_name = "A,B,...", value_delimiter = ',', conflicts_with_all = ["strategy", "units"], value_parser = Offered(pass_names), hide_possible_values = true)]
    pub passes: Option<Vec<String>>,

    /// Leave this pass out of the schedule (repeat it, or give several comma-separated).
    #[arg(
        help_heading = "Choosing passes",
        long,
        value_name = "NAME",
        value_delimiter = ',',
        value_parser = Offered(pass_names),
        hide_possible_values = true
    )]
    pub skip_pass: Vec<String>,

    /// Stop after this many tests in all: the first check, the passes and the final
    /// confirmation, counted as one job counts them (so the result is the same for every -j).
    #[arg(help_heading = "Limits", long, value_name = "N")]
    pub max_tests: Option<u64>,

    /// Run every candidate, even ones already tested.
    #[arg(help_heading = "Limits", long)]
    pub no_cache: bool,

    /// Test candidates in batches of N and merge their successes, so that many jobs (16 to
    /// 64, on a cluster) do not waste tests behind each success. The result depends on N,
    /// never on -j; N = 1 (the default) tests one candidate after another, which costs the
    /// fewest tests. Try N = -j when tests are slow and jobs plentiful.
    #[arg(help_heading = "Running the test", long, default_value_t = 1, value_name = "N", value_parser = clap::value_parser!(u16).range(1..=1024))]
    pub batch: u16,

    /// In the summary, list every pass (those that ran no test too) and the passes' counters.
    #[arg(help_heading = "Output", short, long)]
    pub verbose: bool,

    /// What a terminal shows while the run goes: `full`, a full-screen view (figures, a size
    /// graph, the current best, the test's output, the passes; `?` lists its keys); `line`,
    /// a status line; `auto` (the default), `full` on a terminal of at least 100x30, else
    /// `line`. Piped, each improvement is one line whatever this says.
    #[arg(help_heading = "Output", long, default_value = "auto", value_name = "HOW", value_parser = ["auto", "full", "line"])]
    pub ui: String,

    /// Write the run's figures as JSON to PATH.
    #[arg(help_heading = "Output", long, value_name = "PATH")]
    pub stats_json: Option<PathBuf>,

    /// Accept a result of zero or one byte (by default that is an error, exit 5: a test that
    /// accepts it usually accepts almost anything).
    #[arg(help_heading = "Limits", long)]
    pub allow_trivial: bool,

    /// Keep the run (original, best, steps, a log of every test, the verdict cache) in DIR, a
    /// new or empty directory (default: a new directory under $XDG_STATE_HOME/myhill/runs or
    /// ~/.local/state/myhill/runs, printed at the start; a new run there removes those not
    /// among the newest 20 and unchanged for 14 days; see `myhill runs`).
    #[arg(
        help_heading = "The run directory",
        long,
        value_name = "DIR",
        conflicts_with = "no_run_dir"
    )]
    pub run_dir: Option<PathBuf>,

    /// Keep no run directory (then the run cannot be resumed).
    #[arg(help_heading = "The run directory", long)]
    pub no_run_dir: bool,

    /// Continue the run kept in DIR (killed, interrupted or stopped by --max-tests) with the
    /// same test and options; TEST and INPUT are taken from it. Verdicts on disk are not
    /// tested again. Options given here (such as -j or -o) replace the stored ones.
    #[arg(help_heading = "The run directory", long, value_name = "DIR")]
    pub resume: Option<PathBuf>,

    /// Keep each candidate on which the test exits with CODE in the run directory's
    /// also-interesting/ folder (at most 1000 of them): other bugs met on the way. CODE is
    /// 0 to 255, a signal counting as 128 + its number.
    #[arg(
        help_heading = "The run directory",
        long,
        value_name = "CODE",
        allow_negative_numbers = true,
        value_parser = clap::value_parser!(i32).range(0..=255)
    )]
    pub also_interesting: Option<i32>,
}

/// The units a deletion can remove, offered to shell completion and listed on a bad value.
fn units() -> impl clap::builder::TypedValueParser<Value = Granularity> {
    use clap::builder::PossibleValue;
    clap::builder::PossibleValuesParser::new([
        PossibleValue::new("bytes").alias("byte").alias("chars"),
        PossibleValue::new("lines").alias("line"),
        PossibleValue::new("tokens").alias("token"),
    ])
    .try_map(|units| units.parse::<Granularity>())
}

/// A name taken as given (the library says what is wrong with an unknown one, and what the
/// names are), while shell completion offers the names the function lists.
#[derive(Clone)]
struct Offered(fn() -> Vec<&'static str>);

impl clap::builder::TypedValueParser for Offered {
    type Value = String;

    fn parse_ref(
        &self,
        command: &clap::Command,
        arg: Option<&clap::Arg>,
        value: &std::ffi::OsStr,
    ) -> Result<String, clap::Error> {
        clap::builder::StringValueParser::new().parse_ref(command, arg, value)
    }

    fn possible_values(
        &self,
    ) -> Option<Box<dyn Iterator<Item = clap::builder::PossibleValue> + '_>> {
        Some(Box::new(
            (self.0)()
                .into_iter()
                .map(clap::builder::PossibleValue::new),
        ))
    }
}

fn strategy_names() -> Vec<&'static str> {
    myhill::strategy::STRATEGIES
        .iter()
        .map(|s| s.name)
        .collect()
}

/// The passes' names, made once for the life of the process (clap keeps static names).
fn pass_names() -> Vec<&'static str> {
    static NAMES: std::sync::OnceLock<Vec<&'static str>> = std::sync::OnceLock::new();
    NAMES
        .get_or_init(|| {
            myhill::strategy::pass_descriptions()
                .into_iter()
                .map(|(name, _)| &*Box::leak(name.into_boxed_str()))
                .collect()
        })
        .clone()
}

/// `text` after `head`, wrapped to `width` with every following line indented to where the
/// text began, so the names stay in a column of their own.
fn hanging(head: &str, text: &str, width: usize) -> String {
    let indent = head.chars().count();
    let mut out = head.to_string();
    let mut column = indent;
    for (k, word) in text.split_whitespace().enumerate() {
        let len = word.chars().count();
        if k > 0 && column + 1 + len > width {
            out.push('\n');
            out.push_str(&" ".repeat(indent));
            column = indent;
        } else if k > 0 {
            out.push(' ');
            column += 1;
        }
        out.push_str(word);
        column += len;
    }
    out
}

/// Prints every pass and what it does, then each strategy: what it does and its passes.
/// Wrapped to 80 columns (fewer on a narrower terminal), each entry's text indented under
/// its own column so a name stays at the start of its line for grep.
fn list_passes() {
    // At most 80 columns, piped too, so the list reads well anywhere.
    let width = terminal::stdout_width().map_or(80, |w| w.saturating_sub(1).clamp(40, 80));
    out::out("Passes (name: what it does):");
    for (name, what) in myhill::strategy::pass_descriptions() {
        out::out(hanging(&format!("  {name:<24} "), &what, width));
    }
    out::out("");
    out::out("Strategies (name: what it does; its passes, in order):");
    for &myhill::strategy::StrategyInfo { name, what, .. } in myhill::strategy::STRATEGIES {
        if let Ok(strategy) = myhill::Strategy::named(name) {
            out::out(hanging(&format!("  {name:<18} "), what, width));
            let passes = strategy.schedule().names().join(", ");
            out::out(hanging(&format!("  {:<18} passes: ", ""), &passes, width));
        }
    }
}

fn strategy_help() -> String {
    let names: Vec<&str> = myhill::strategy::STRATEGIES
        .iter()
        .map(|s| s.name)
        .collect();
    format!(
        "The reduction strategy: a named schedule of passes, one of {}. `myhill --list-passes` \
         says what each does and lists its passes.",
        names.join(", ")
    )
}

/// The binary's whole work: parses the command line, runs it, and returns the exit code.
pub fn main() -> i32 {
    let matches = Cli::command().get_matches();
    match Cli::from_arg_matches(&matches) {
        Ok(cli) => run(cli, &matches),
        Err(e) => e.exit(),
    }
}

/// Runs the parsed command and returns the process's exit code; `matches` say which
/// options were given on the command line (a resumed run takes the others from its directory).
pub fn run(cli: Cli, matches: &clap::ArgMatches) -> i32 {
    let result = match cli.command {
        _ if cli.list_passes => {
            list_passes();
            Ok(exit::Ended::Done)
        }
        None => Err(Fail::usage(
            "give a subcommand (reduce, check, compare, bisect, runs, completions, man) or --list-passes; see myhill --help",
        )),
        Some(Command::Reduce(args)) => match matches.subcommand_matches("reduce") {
            Some(given) => reduce::run(args, given),
            None => Err(Fail::usage("reduce: no arguments")),
        },
        Some(Command::Bisect(args)) => bisect::run(args),
        Some(Command::Check(args)) => check::run(args),
        Some(Command::Compare(args)) => compare::run(args),
        Some(Command::Runs { action }) => runs::run(action),
        Some(Command::Completions { shell }) => {
            let mut out = Vec::new();
            clap_complete::generate(shell, &mut Cli::command(), "myhill", &mut out);
            out::out_raw(&out);
            Ok(exit::Ended::Done)
        }
        Some(Command::Man { subcommand }) => {
            let mut command = Cli::command();
            // Building names the subcommands as their pages do: myhill-reduce, ...
            command.build();
            let command = match subcommand {
                Some(name) => match command.find_subcommand(&name) {
                    Some(sub) => sub.clone().version(env!("CARGO_PKG_VERSION")),
                    None => command,
                },
                None => command,
            };
            let mut page = Vec::new();
            match clap_mangen::Man::new(command).render(&mut page) {
                Ok(()) => {
                    out::out_raw(&page);
                    Ok(exit::Ended::Done)
                }
                Err(e) => Err(Fail::usage(format!("cannot render the manual page: {e}"))),
            }
        }
    };
    match result {
        Ok(ended) => ended.exit().code(),
        Err(fail) => {
            out::err(format!("myhill: {}", fail.message));
            fail.ended.exit().code()
        }
    }
}

/// Parses `--kind`.
fn kind_of(name: &str) -> Result<myhill::text::Kind, String> {
    myhill::text::Kind::named(name).ok_or_else(|| {
        let known: Vec<&str> = myhill::text::Kind::ALL.iter().map(|k| k.name()).collect();
        format!("no kind '{name}'; the kinds are: {}", known.join(", "))
    })
}
