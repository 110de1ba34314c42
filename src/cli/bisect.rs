//! `myhill bisect`: reads or builds the list of items, runs the test per item, reports the change.

use super::setup::resolve_test;
use super::{BisectArgs, EXIT_FLAKY, EXIT_NOT_INTERESTING, EXIT_OK, Fail};
use myhill::bisect::{Bisection, Status, first_bad};
use myhill::command::{CommandOracle, CommandSpec, InputMode};
use myhill::{Cancel, Verdict};
use std::path::Path;
use std::time::Duration;

fn items_from_file(path: &Path) -> Result<Vec<String>, Fail> {
    let text = std::fs::read_to_string(path).map_err(|e| {
        Fail::setup(format!(
            "cannot read the items file {}: {e} (give a file listing versions oldest first, one per line)",
            path.display()
        ))
    })?;
    Ok(text
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(String::from)
        .collect())
}

fn items_from_git(good: &str, bad: &str) -> Result<Vec<String>, Fail> {
    let out = std::process::Command::new("git")
        .args([
            "rev-list",
            "--reverse",
            "--first-parent",
            &format!("{good}..{bad}"),
        ])
        .output()
        .map_err(|e| Fail::setup(format!("cannot run git: {e} (is git installed?)")))?;
    if !out.status.success() {
        return Err(Fail::setup(format!(
            "git rev-list {good}..{bad} failed: {} (run it inside the repository, with revisions that exist)",
            String::from_utf8_lossy(&out.stderr).trim()
        )));
    }
    let resolve = std::process::Command::new("git")
        .args(["rev-parse", "--verify", &format!("{good}^{{commit}}")])
        .output()
        .map_err(|e| Fail::setup(format!("cannot run git: {e}")))?;
    if !resolve.status.success() {
        return Err(Fail::setup(format!(
            "{good} is not a commit of this repository"
        )));
    }
    let mut items = vec![String::from_utf8_lossy(&resolve.stdout).trim().to_string()];
    items.extend(
        String::from_utf8_lossy(&out.stdout)
            .lines()
            .map(String::from),
    );
    Ok(items)
}

fn status_name(s: Status) -> &'static str {
    match s {
        Status::Good => "good",
        Status::Bad => "bad",
        Status::Untestable => "untestable",
    }
}

pub fn run(args: BisectArgs) -> Result<i32, Fail> {
    let (items, test) = match (&args.git, args.args.as_slice()) {
        (Some(range), [test]) => (items_from_git(&range[0], &range[1])?, test.clone()),
        (None, [items, test]) => (items_from_file(Path::new(items))?, test.clone()),
        (Some(_), _) => {
            return Err(Fail::setup(
                "with --git give only TEST, e.g. myhill bisect --git v1 HEAD ./test.sh",
            ));
        }
        (None, _) => {
            return Err(Fail::setup(
                "give ITEMS and TEST, e.g. myhill bisect versions.txt ./test.sh",
            ));
        }
    };
    if items.len() < 2 {
        return Err(Fail::setup(format!(
            "bisection needs at least two items (a good one first, a bad one last); got {}",
            items.len()
        )));
    }
    if args.repeat == 0 {
        return Err(Fail::setup("--repeat must be at least 1"));
    }
    let argv = resolve_test(&test)?;
    let signature = args.signature.compile()?;
    let cwd = std::env::current_dir()
        .map_err(|e| Fail::setup(format!("cannot read the current directory: {e}")))?;
    let capture = tempfile::tempdir()
        .map_err(|e| Fail::setup(format!("cannot make a temporary directory: {e}")))?;
    let timeout = Duration::from_secs_f64(args.timeout.unwrap_or(300.0).max(0.001));
    let signature_set = signature.is_set();

    let probe_once = |index: usize| -> Result<(Status, String), Fail> {
        let mut words = argv.clone();
        words.push(items[index].clone());
        let mut spec = CommandSpec::new(words, "unused");
        spec.input_mode = InputMode::File;
        spec.signature = signature.clone();
        spec.capture_output = true;
        let oracle = CommandOracle::new(spec);
        oracle.set_timeout(timeout);
        let outcome = oracle
            .run_at(
                Path::new("/dev/null"),
                &cwd,
                capture.path(),
                &Cancel::never(),
            )
            .map_err(|e| Fail::setup(e.to_string()))?;
        let status = match (outcome.verdict, outcome.exit_code) {
            (Verdict::TimedOut, _) => Status::Untestable,
            (_, Some(125)) => Status::Untestable,
            (Verdict::Interesting, _) if signature_set => Status::Bad,
            (_, _) if signature_set => Status::Good,
            (_, Some(0)) => Status::Good,
            _ => Status::Bad,
        };
        let how = match (outcome.verdict, outcome.exit_code) {
            (Verdict::TimedOut, _) => {
                format!("timed out after {:.1}s", outcome.duration.as_secs_f64())
            }
            (_, Some(c)) => format!("exit {c}, {:.2}s", outcome.duration.as_secs_f64()),
            (_, None) => "killed by a signal".to_string(),
        };
        Ok((status, how))
    };
    let mut runs = 0usize;
    let mut probe = |index: usize| -> Result<Status, Fail> {
        let mut verdicts = Vec::new();
        for _ in 0..args.repeat {
            let (status, how) = probe_once(index)?;
            runs += 1;
            let line = format!(
                "run {runs}: item {} ({} of {}) -> {} ({how})",
                items[index],
                index + 1,
                items.len(),
                status_name(status)
            );
            if !args.quiet {
                eprintln!("myhill: {line}");
            }
            verdicts.push(status);
        }
        if verdicts.windows(2).any(|w| w[0] != w[1]) {
            if !args.allow_flaky {
                return Err(Fail {
                    code: EXIT_FLAKY,
                    message: format!(
                        "the test is flaky on item {}: its {} runs disagreed. Make it deterministic, or pass --allow-flaky to take the majority.",
                        items[index], args.repeat
                    ),
                });
            }
            let bad = verdicts.iter().filter(|&&v| v == Status::Bad).count();
            let good = verdicts.iter().filter(|&&v| v == Status::Good).count();
            return Ok(if bad > good {
                Status::Bad
            } else if good > bad {
                Status::Good
            } else {
                Status::Untestable
            });
        }
        Ok(verdicts[0])
    };
    let result = first_bad(items.len(), &mut probe)?;
    match result {
        Bisection::Found {
            first_bad,
            last_good,
            probes,
        } => {
            println!("first bad: {}", items[first_bad]);
            println!("last good: {}", items[last_good]);
            println!("items probed: {probes}, test runs: {runs}");
            Ok(EXIT_OK)
        }
        Bisection::Ambiguous {
            last_good,
            candidates,
            probes,
        } => {
            println!("last good: {}", items[last_good]);
            println!(
                "first bad: one of {} (untestable items hide the change)",
                candidates
                    .iter()
                    .map(|&i| items[i].as_str())
                    .collect::<Vec<_>>()
                    .join(", ")
            );
            println!("items probed: {probes}, test runs: {runs}");
            Ok(EXIT_OK)
        }
        Bisection::BadEnds { first, last } => Err(Fail {
            code: EXIT_NOT_INTERESTING,
            message: format!(
                "the first item {} must be good and the last item {} bad, but they are {} and {}. \
                 Check the order of ITEMS (oldest first) and the test.",
                items[0],
                items[items.len() - 1],
                status_name(first),
                status_name(last)
            ),
        }),
    }
}
