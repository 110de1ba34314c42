//! What reduce, check and compare share: the input, the test, the signals, and explaining a failed first check.

use super::TestArgs;
use super::exit::{Ended, Fail};
use super::files::read_input;
use myhill::{
    Error, Oracle, ReduceOptions, Stop, TestCommand, TestSpec,
    eval::{EvalOptions, Evaluator},
    process::{Control, Outcome, parse_timeout},
};
use std::path::{Path, PathBuf};

/// The input and the test, ready to run.
pub struct Session {
    pub input_path: PathBuf,
    pub original: Vec<u8>,
    pub oracle: TestCommand,
    pub control: Control,
    pub jobs: usize,
    /// INPUT is a directory: `original` is its tree, encoded ([`myhill::archive::Archive`]).
    pub tree: bool,
    /// The tree's links whose targets leave it (`link -> target`), and whether each is
    /// relative (then it dangles in the copies the tests run in).
    pub links_leaving: Vec<(String, bool)>,
}

/// Installs the Ctrl-C and SIGTERM handling: the first signal stops cleanly (tests get
/// SIGTERM and a grace, the best is written, the summary printed); a second Ctrl-C hurries
/// (tests are killed at once, a grace under way cut short); a third kills the tests' groups,
/// removes their directories and exits at once. Repeated SIGTERMs do not escalate:
/// `timeout` sends one to the process and one to its group, and the clean stop should win.
fn install_signals() -> Result<Control, Fail> {
    use signal_hook::consts::{SIGINT, SIGTERM};
    let control = Control::new();
    let mut signals = signal_hook::iterator::Signals::new([SIGINT, SIGTERM])
        .map_err(|e| Fail::usage(format!("cannot install the signal handler: {e}")))?;
    let handle = control.clone();
    std::thread::spawn(move || {
        let mut interrupts = 0;
        for signal in signals.forever() {
            if signal == SIGINT {
                interrupts += 1;
            }
            match interrupts {
                0 | 1 => handle.stop(),
                2 => handle.hurry(),
                _ => {
                    // No destructor runs on this exit: no test may outlive it, nor its
                    // directory, and the terminal gets its line mode back.
                    myhill::process::kill_running();
                    myhill::process::remove_test_dirs();
                    super::terminal::restore();
                    super::ui::view::restore_if_active();
                    std::process::exit(Ended::Interrupted.exit().code())
                }
            }
        }
    });
    Ok(control)
}

/// What `reduce` adds to the shared test arguments.
#[derive(Default)]
pub struct Extras {
    /// The original, when it comes from a run directory rather than INPUT.
    pub original: Option<Vec<u8>>,
    /// `--also-interesting`: the status and where to keep the candidates.
    pub also_interesting: Option<(i32, PathBuf)>,
    /// Where TEST's relative paths are taken from, when not the current directory (a
    /// resumed run's, where it began).
    pub test_dir: Option<PathBuf>,
}

impl Session {
    /// Reads INPUT and resolves TEST, or says what is wrong; nothing runs yet.
    pub fn open(t: &TestArgs) -> Result<Session, Fail> {
        Session::open_with(t, Extras::default())
    }

    /// [`Session::open`] with what `reduce` adds.
    pub fn open_with(t: &TestArgs, extras: Extras) -> Result<Session, Fail> {
        let input_path = t.input.clone();
        let tree = input_path.is_dir();
        let original = match extras.original {
            Some(o) => o,
            None if tree => super::tree_io::read_tree(&input_path)?,
            None => read_input(&input_path)?,
        };
        let file_name = input_path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_else(|| "input".to_string());
        if let Some(word) = shell_syntax(&t.test)
            && !t.quiet
        {
            super::out::err(format!(
                "myhill: warning: TEST holds {word:?}, which a shell would read as syntax; myhill \
                 runs no shell, so it reaches the test as an argument. For a pipe, a redirection \
                 or a list, write: sh -c '...' sh"
            ));
        }
        let mut spec = match &extras.test_dir {
            Some(dir) => TestSpec::parse_in(&t.test, &file_name, dir)?,
            None => TestSpec::parse(&t.test, &file_name)?,
        };
        if tree && t.input_mode == myhill::process::InputMode::Stdin {
            return Err(Fail::usage(format!(
                "--input-mode stdin: {} is a directory, and a directory's test gets nothing on \
                 stdin (it runs inside a copy of the tree, with the copy's path as its last \
                 argument): leave out --input-mode, or read the files the test needs from its \
                 working directory",
                input_path.display()
            )));
        }
        spec.input_mode = t.input_mode;
        spec.timeout_is_interesting = t.timeout_is_interesting;
        spec.signature = t.signature.compile(t.same_output)?;
        spec.timeout = t.timeout.map(parse_timeout).transpose()?;
        spec.private_tmpdir = !t.shared_tmpdir;
        spec.also_interesting = extras.also_interesting;
        spec.tree = tree;
        if let Some(launcher) = &t.launcher {
            spec.set_launcher(launcher)?;
        }
        if let Some(dir) = &t.work_dir {
            if !dir.is_dir() {
                return Err(Fail::usage(format!(
                    "--work-dir {}: no such directory; make it first (on a cluster, on a file \
                     system every node can see)",
                    dir.display()
                )));
            }
            spec.temp_root = Some(std::path::absolute(dir).unwrap_or(dir.clone()));
        }
        let control = install_signals()?;
        let cores = std::thread::available_parallelism()
            .map(|n| n.get())
            .unwrap_or(1);
        let jobs = t.jobs.map(usize::from).unwrap_or(cores);
        if spec.launcher.is_empty() {
            spec.sharing = u32::try_from(jobs.div_ceil(cores)).unwrap_or(u32::MAX);
        }
        let links_leaving = links_leaving(&original, tree);
        if !links_leaving.is_empty() && !t.quiet {
            super::out::err(links_warning(&input_path, &links_leaving));
        }
        Ok(Session {
            input_path,
            original,
            oracle: TestCommand::new(spec),
            control,
            jobs,
            tree,
            links_leaving,
        })
    }

    /// The reduction options these arguments ask for.
    pub fn options(&self, t: &TestArgs, max_tests: Option<u64>) -> ReduceOptions {
        ReduceOptions {
            jobs: self.jobs,
            max_tests,
            first_runs: t.first_runs,
            allow_flaky: t.allow_flaky,
            control: self.control.clone(),
            ..ReduceOptions::default()
        }
    }

    /// Says the original passed its first check.
    pub fn interesting_line(&self, original: &[u8], outcomes: &[Outcome]) -> String {
        let slowest = outcomes
            .iter()
            .map(|o| o.duration)
            .max()
            .unwrap_or_default();
        let size = match super::tree_io::sizes(original).filter(|_| self.tree) {
            Some((1, content)) => format!("1 file, {content} bytes"),
            Some((files, content)) => format!("{files} files, {content} bytes"),
            None => format!("{} bytes", original.len()),
        };
        let spec = self.oracle.spec();
        // A timeout stretched for tests that share the cores is said, not applied silently.
        let shared = if spec.sharing > 1 && spec.timeout.is_none() {
            format!(
                ", {}x the one-job timeout: {} tests share each core at -j {}; give --timeout \
                 to set it",
                spec.sharing, spec.sharing, self.jobs
            )
        } else {
            String::new()
        };
        format!(
            "myhill: the original is interesting ({size}, test took {:.2}s; timeout {:.1}s{shared})",
            slowest.as_secs_f64(),
            self.oracle.timeout().as_secs_f64()
        )
    }

    /// Turns a failed first check into a message; an uninteresting original is explained
    /// (its output, how it behaves beside a copy of its directory, how to reproduce it).
    pub fn explain(&self, error: Error) -> Fail {
        let Error::NotInteresting(outcome) = &error else {
            return error.into();
        };
        let mut msg = format!("{error}.\n");
        msg.push_str(&format!(
            "  stdout (last lines):\n{}",
            tail(&outcome.stdout.tail)
        ));
        msg.push_str(&format!(
            "  stderr (last lines):\n{}",
            tail(&outcome.stderr.tail)
        ));
        // The diagnosis's tests run through an evaluator like every other, and are counted.
        let mut tests = 0;
        let mut run = |oracle: &dyn Oracle, bytes: &[u8]| {
            let options = EvalOptions {
                control: self.control.clone(),
                ..EvalOptions::bare()
            };
            let mut eval = Evaluator::new(oracle, options);
            let outcome = eval.run_verbose(bytes);
            tests += eval.stats().tests_run;
            outcome.map_err(|stop| match stop {
                Stop::Oracle(why) => why,
                other => other.to_string(),
            })
        };
        let diagnosis = self.oracle.diagnose(&self.input_path, &mut run);
        let dir = self
            .input_path
            .canonicalize()
            .ok()
            .and_then(|p| p.parent().map(|d| d.display().to_string()))
            .unwrap_or_else(|| ".".into());
        match &diagnosis.beside_input {
            _ if diagnosis.flaky => msg.push_str(
                "  Run again on the same input, the test gave another verdict: it may be flaky \
                 (its verdicts differ from run to run). Make it deterministic (fixed seeds, no \
                 timing, no shared state), or pass --allow-flaky to go on when one first run \
                 says interesting and re-confirm every reduction.\n",
            ),
            Ok(o) if o.verdict.is_interesting() => msg.push_str(&format!(
                "  Beside a copy of the files in {dir} the test says interesting, so it depends \
                 on its working directory or on files beside the input: use absolute paths in \
                 the test, or copy what it needs.\n"
            )),
            Ok(o) => msg.push_str(&format!(
                "  Beside a copy of the files in {dir} it behaves the same ({}).\n",
                o.describe()
            )),
            Err(why) => msg.push_str(&format!(
                "  (Not tried beside a copy of the input's directory: {why}.)\n"
            )),
        }
        let dangling: Vec<&str> = (self.links_leaving.iter())
            .filter(|(_, relative)| *relative)
            .map(|(link, _)| link.as_str())
            .collect();
        if !dangling.is_empty() {
            msg.push_str(&format!(
                "  These links climb out of the tree, so they dangle in the copy the test runs \
                 in: {}. Replace each with a copy of what it points to (cp \
                 --remove-destination \"$(readlink -f LINK)\" LINK), or make the test not need \
                 it.\n",
                dangling.join(", ")
            ));
        }
        msg.push_str(&format!(
            "  (The test ran {tests} more time(s) for this diagnosis.) Reproduce it in a fresh \
             temporary directory, as myhill runs it:\n    {}\n",
            diagnosis.reproduce
        ));
        msg.push_str(
            "  Fix the test (it must exit 0 on this input) or the signature options, then run myhill again.",
        );
        Fail {
            ended: if diagnosis.flaky {
                Ended::Flaky
            } else {
                Ended::NotInteresting
            },
            message: msg,
        }
    }
}

/// The first word of the command line `test` that is shell syntax (a pipe, a redirection, a
/// list), if any.
fn shell_syntax(test: &str) -> Option<String> {
    let words = shlex::split(test)?;
    let syntax = ["|", "||", "&&", ";", "&", "<", ">", ">>", "2>&1", "&>"];
    words.into_iter().skip(1).find(|w| {
        syntax.contains(&w.as_str())
            || w.starts_with('>')
            || w.starts_with("2>")
            || w.starts_with("1>")
            || w.ends_with(';')
    })
}

/// The links of a tree (`original` encoded, when `tree`) that leave it, as `link -> target`
/// with whether the target is relative.
fn links_leaving(original: &[u8], tree: bool) -> Vec<(String, bool)> {
    let Some(archive) = tree
        .then(|| myhill::archive::Archive::decode(original).ok())
        .flatten()
    else {
        return Vec::new();
    };
    (archive.links_leaving().into_iter())
        .map(|(link, target)| {
            (
                super::out::printable(
                    format!("{} -> {}", link.display(), target.display()).as_bytes(),
                    300,
                ),
                target.is_relative(),
            )
        })
        .collect()
}

/// Says, at the start, which links leave the tree and what that does in the copies.
fn links_warning(dir: &Path, links: &[(String, bool)]) -> String {
    let absolute: Vec<&str> = (links.iter())
        .filter(|(_, relative)| !*relative)
        .map(|(l, _)| l.as_str())
        .collect();
    let relative: Vec<&str> = (links.iter())
        .filter(|(_, relative)| *relative)
        .map(|(l, _)| l.as_str())
        .collect();
    let mut said = format!(
        "myhill: warning: {} link(s) in {} leave the tree.",
        links.len(),
        dir.display()
    );
    if !absolute.is_empty() {
        said.push_str(&format!(
            " In every copy these still point at the same place outside it, so the tests \
             read (and may write) there: {}.",
            absolute.join(", ")
        ));
    }
    if !relative.is_empty() {
        said.push_str(&format!(
            " These dangle in the copies: {}.",
            relative.join(", ")
        ));
    }
    said.push_str(
        " To keep each test inside its copy, replace a link with a copy of what it points to: \
         cp --remove-destination \"$(readlink -f LINK)\" LINK",
    );
    said
}

/// The last lines a test printed, escaped ([`super::out::printable`]): a test's output never
/// reaches the terminal as it is (it could clear the screen or rename the window).
fn tail(bytes: &[u8]) -> String {
    let all: Vec<&[u8]> = bytes
        .split(|&b| b == b'\n')
        .filter(|l| !l.is_empty())
        .collect();
    if all.is_empty() {
        return "    (nothing)\n".to_string();
    }
    all[all.len().saturating_sub(10)..]
        .iter()
        .map(|l| format!("    {}\n", super::out::printable(l, 300)))
        .collect()
}
